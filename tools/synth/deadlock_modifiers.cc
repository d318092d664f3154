// gem-synth's Deadlock match, part two: the ActiveModifiers lives
// (deadlock_events.h says when they come and go).
#include <iterator>

#include "proto/modifier_entry.pb.h"
#include "tools/synth/deadlock_events.h"
#include "tools/synth/json_truth.h"

namespace gem::synth {
namespace {

// Modifiers of the game with the CUtlStringTokens of their names, as
// boon's name tables (from modifiers.vdata) give them: numbers, so that
// gem's StringToken and its table of names are what the test checks.
struct KnownModifier {
  uint32_t token;
  const char* name;
};
constexpr KnownModifier kKnownModifiers[] = {{1398909042u, "modifier_citadel_stunned"},
                                             {3475378696u, "modifier_combat_status"},
                                             {1635198563u, "modifier_life_steal"},
                                             {3201350425u, "modifier_speed_boost"}};

}  // namespace

void DeadlockEvents::WriteModifier(const ModifierLife& life, bool removed) {
  SimTable* table = world_->FindTable("ActiveModifiers");
  proto::CModifierTableEntry e;
  e.ParseFromString(life.entry_head);
  if (removed) e.set_entry_type(2);
  e.set_stack_count(life.stacks);
  const int32_t index = life.index;
  world_->SetEntry(table, index, std::to_string(index), e.SerializeAsString());
}

void DeadlockEvents::EndModifier(ModifierLife* life, uint32_t tick) {
  Json t = Json::parse(life->truth);
  t["removed_tick"] = tick == 0 ? Null() : Json(tick);
  t["stacks"] = life->stacks;
  if (truth_ != nullptr) std::fprintf(truth_, "%s\n", t.dump().c_str());
}

void DeadlockEvents::Modifiers(uint32_t tick) {
  SimTable* table = world_->FindTable("ActiveModifiers");
  if (table == nullptr || players_.empty()) return;
  const uint32_t since = tick - start_;
  // Ends first: a removed entry's index is free for a later life.
  for (size_t i = 0; i < modifiers_.size();) {
    if (modifiers_[i].end_tick > tick && tick != end_) {
      ++i;
      continue;
    }
    if (tick == end_ && modifiers_[i].end_tick > tick) {
      EndModifier(&modifiers_[i], 0);  // still on at the end
    } else {
      WriteModifier(modifiers_[i], true);
      EndModifier(&modifiers_[i], tick);
      free_entries_.push_back(modifiers_[i].index);
    }
    modifiers_.erase(modifiers_.begin() + static_cast<long>(i));
  }
  if (tick == end_) return;
  if (since % stack_every_ == stack_every_ / 2 && !modifiers_.empty()) {
    ModifierLife& life = modifiers_[Below(modifiers_.size())];
    ++life.stacks;
    WriteModifier(life, false);
  }
  if (since % modifier_every_ != 0) return;
  std::vector<int32_t> pawns;
  for (const Player& p : players_) pawns.push_back(p.pawn->index);
  SimEntity* parent = Uniform() < 0.5 ? Pick(pawns) : Pick(troopers_);
  if (parent == nullptr) return;
  const Player& caster = players_[Below(players_.size())];
  ModifierLife life;
  if (!modifiers_.empty() && Below(4) == 0) {
    // Over a live one: that life ends here.
    const size_t k = Below(modifiers_.size());
    life.index = modifiers_[k].index;
    EndModifier(&modifiers_[k], tick);
    modifiers_.erase(modifiers_.begin() + static_cast<long>(k));
  } else if (!free_entries_.empty()) {
    life.index = free_entries_.back();
    free_entries_.pop_back();
  } else {
    life.index = static_cast<int32_t>(table->entries.size());
  }
  const uint32_t end_tick =
      tick + 2 * modifier_every_ + static_cast<uint32_t>(Below(4 * modifier_every_));
  const Ability* ability = abilities_.empty() ? nullptr : &abilities_[Below(abilities_.size())];
  // Half are modifiers the game has (gem names them from its table), half
  // ids no table names.
  const KnownModifier* known = Below(2) == 0 ? &kKnownModifiers[Below(std::size(kKnownModifiers))]
                                             : nullptr;
  const uint32_t modifier_id =
      known ? known->token : 0x40000000u + static_cast<uint32_t>(Below(1000));
  const float duration = static_cast<float>(5 + Below(30));
  BeginModifier(&life, tick, end_tick, parent, caster, ability,
                ability ? std::optional<uint32_t>(ability->id) : std::nullopt, modifier_id,
                known ? known->name : nullptr, duration);
  modifiers_.push_back(std::move(life));
}

void DeadlockEvents::BeginModifier(ModifierLife* life, uint32_t tick, uint32_t end_tick,
                                   const SimEntity* parent, const Player& caster,
                                   const Ability* ability, std::optional<uint32_t> ability_id,
                                   uint32_t modifier_id, const char* modifier_name,
                                   float duration) {
  life->serial = next_serial_++;
  life->end_tick = end_tick;
  life->stacks = 1;
  const bool ability_live = ability && world_->entities().count(ability->index) > 0;
  const float applied = static_cast<float>((tick - start_) * world_->tick_interval());
  proto::CModifierTableEntry e;
  e.set_entry_type(1);
  e.set_parent(parent->handle());
  e.set_serial_number(life->serial);
  e.set_modifier_subclass(modifier_id);
  e.set_max_stack_count(5);
  e.set_last_applied_time(applied);
  e.set_duration(duration);
  e.set_caster(caster.pawn->handle());
  if (ability_live) e.set_ability(world_->entities().at(ability->index)->handle());
  if (ability_id) e.set_ability_subclass(*ability_id);
  life->entry_head = e.SerializeAsString();
  auto slot = [&](const SimEntity* x) { return SlotOf(x) >= 0 ? Json(SlotOf(x)) : Null(); };
  life->truth = Json{{"kind", "modifiers"}, {"tick", tick}, {"removed_tick", Null()},
                     {"slot", slot(parent)}, {"parent", parent->index},
                     {"parent_class", parent->class_name()}, {"caster", caster.pawn->index},
                     {"caster_slot", caster.slot},
                     {"ability", ability ? Json(ability->name) : Null()},
                     {"ability_id", ability_id ? Json(*ability_id) : Null()},
                     {"modifier_id", modifier_id},
                     {"modifier", modifier_name ? Json(modifier_name) : Null()},
                     {"serial", life->serial}, {"stacks", 1}, {"max_stacks", 5},
                     {"duration", F32(duration)}, {"last_applied", F32(applied)}}
                    .dump();
  WriteModifier(*life, false);
}

}  // namespace gem::synth
