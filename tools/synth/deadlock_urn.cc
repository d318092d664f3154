// gem-synth's Deadlock match, part three: the urn, a delivery point, the
// patron's phases, cooldowns and the match mode (deadlock_events.h has the
// rest).
//
// The schedule, in minutes of the match (m) from its start:
// - 7m: the first delivery point (CCitadelIdolReturnTrigger) takes team 2
//   and is enabled; at 8m20s it is disabled again.
// - 7m10s: player 0's pawn gains a golden-idol modifier (it picks the urn
//   up). At 8m it delivers: the golden idol is removed and an idol-return
//   modifier put on in the same packet, and again 10 ticks later (one
//   delivery, not two).
// - 17m: it picks the urn up again; at 17m30s the modifier is put on
//   afresh (removed, and a new serial at another entry, in one packet: no
//   drop); at 18m the urn is dropped.
// - 4m and 5m: the first patron's m_ePhase turns 2, then 1 (it falls at
//   11m20s, deadlock_events.h).
// - every 45 s from 10 s: an ability a player's pawn owns (m_hOwnerEntity)
//   begins a cooldown: m_flCooldownStart the server time now,
//   m_flCooldownEnd 8.5 s later.
// - the first packet: the game rules' m_eMatchMode becomes 4 (ranked); the
//   patrons are created there, in their fixture's phase.
// The urn's modifiers are modifier lives like any other (modifiers truth
// rows), but never overwritten at random.
#include <cmath>

#include "core/fields/world_coord.h"
#include "tools/synth/deadlock_events.h"
#include "tools/synth/json_truth.h"

namespace gem::synth {
namespace {

constexpr double kCell = 512.0;  // Deadlock's cell width
constexpr int kMatchMode = 4;    // k_ECitadelMatchMode_Ranked
// The CUtlStringTokens of "ability_golden_idol" and
// "modifier_citadel_idol_return", as boon's name tables give them: written
// as numbers, so that gem's own StringToken is what the test checks.
constexpr uint32_t kGoldenIdolAbility = 2521299219u;
constexpr uint32_t kIdolReturnModifier = 3388847715u;

}  // namespace

int32_t DeadlockEvents::FreeEntry(SimTable* table) {
  if (free_entries_.empty()) return static_cast<int32_t>(table->entries.size());
  const int32_t index = free_entries_.back();
  free_entries_.pop_back();
  return index;
}

void DeadlockEvents::UrnRow(uint32_t tick, const char* event, const SimEntity* e, int32_t slot) {
  urn_rows_.push_back({tick, event, e, slot});
}

void DeadlockEvents::EndPacket() {
  // The urn's rows: team and position as the packet leaves them.
  for (const UrnEvent& u : urn_rows_) WriteUrnRow(u.tick, u.event, u.e, u.slot);
  urn_rows_.clear();
}

void DeadlockEvents::WriteUrnRow(uint32_t tick, const char* event, const SimEntity* e,
                                 int32_t slot) {
  Json t{{"kind", "urn"}, {"tick", tick}, {"event", event},
         {"slot", slot >= 0 ? Json(slot) : Null()},
         {"team", world_->GetInt(*e, "m_iTeamNum", 0)}, {"entity", e->index}};
  for (int axis = 0; axis < 3; ++axis) {
    const std::string a(1, static_cast<char>('X' + axis));
    const Value vec = world_->Get(*e, "CBodyComponent.m_vec" + a);
    const int64_t cell = world_->GetInt(*e, "CBodyComponent.m_cell" + a, -1);
    const char* key = axis == 0 ? "x" : axis == 1 ? "y" : "z";
    t[key] = cell < 0 || vec.kind != ValueKind::kFloat
                 ? Null()
                 : Json(F32(CellCoord(cell, kCell, kWorldOffset, vec.f)));
  }
  Truth(t.dump());
}

void DeadlockEvents::UrnModifier(uint32_t tick, bool golden_idol) {
  SimTable* table = world_->FindTable("ActiveModifiers");
  const Player& p = players_[0];
  ModifierLife life;
  life.index = FreeEntry(table);
  const uint32_t end_tick = golden_idol ? end_ + 2 : tick + stack_every_;  // ended by hand
  BeginModifier(&life, tick, end_tick, p.pawn, p,
                /*ability=*/nullptr,
                golden_idol ? std::optional<uint32_t>(kGoldenIdolAbility)
                            : std::nullopt,
                golden_idol ? 0x40001000u : kIdolReturnModifier,
                golden_idol ? nullptr : "modifier_citadel_idol_return",
                golden_idol ? 0.0f : 5.0f);
  urn_lives_.push_back(std::move(life));
}

void DeadlockEvents::Cooldown(uint32_t tick) {
  std::vector<std::pair<SimEntity*, int32_t>> owned;  // (ability, its owner's slot)
  for (const Ability& a : abilities_) {
    auto it = world_->entities().find(a.index);
    if (it == world_->entities().end()) continue;
    const int64_t owner = world_->GetInt(*it->second, "m_hOwnerEntity", 0xFFFFFF);
    for (const Player& pl : players_) {
      if (pl.pawn->handle() == static_cast<uint32_t>(owner)) {
        owned.emplace_back(it->second.get(), pl.slot);
      }
    }
  }
  if (owned.empty()) return;
  auto [e, slot] = owned[Below(owned.size())];
  const double now = tick * world_->tick_interval();
  if (!world_->Set(e, "m_flCooldownStart", world_->Number(*e, "m_flCooldownStart", now)) ||
      !world_->Set(e, "m_flCooldownEnd", world_->Number(*e, "m_flCooldownEnd", now + 8.5))) {
    return;
  }
  // As the fields hold them (their nearest representable values).
  const float start = world_->Get(*e, "m_flCooldownStart").f;
  const float end = world_->Get(*e, "m_flCooldownEnd").f;
  Truth(Json{{"kind", "ability_cooldowns"}, {"tick", tick}, {"slot", slot},
             {"ability", world_->EntityName(*e)}, {"entity", e->index},
             {"cooldown_start", F32(start)}, {"cooldown_end", F32(end)},
             {"duration_s", F32(end) - F32(start)}}
            .dump());
}

void DeadlockEvents::UrnAndPatron(uint32_t tick) {
  SimTable* table = world_->FindTable("ActiveModifiers");
  if (table == nullptr || players_.empty()) return;
  const uint32_t since = tick - start_;
  if (since == 2) {
    if (rules_ != nullptr &&
        world_->Set(rules_, "m_pGameRules.m_eMatchMode",
                    world_->Number(*rules_, "m_pGameRules.m_eMatchMode", kMatchMode))) {
      Truth(Json{{"kind", "match_info"}, {"match_mode", kMatchMode}}.dump());
    }
    for (const auto& [index, e] : world_->entities()) {
      if (e->class_name() == "CCitadelIdolReturnTrigger") points_.push_back(e.get());
      if (e->class_name() != "CNPC_Boss_Tier3") continue;
      patrons_.push_back(e.get());
      // Its phase as created, in the match's first packet.
      Truth(Json{{"kind", "patron_phases"}, {"tick", start_}, {"entity", e->index},
                 {"team", world_->GetInt(*e, "m_iTeamNum", 0)},
                 {"phase", world_->GetInt(*e, "m_ePhase", -1)}}
                .dump());
    }
  }
  // The urn's lives that end now: the return modifiers (5 s), and the
  // golden idol's removed by the schedule below (end_tick == tick).
  auto end_life = [&](size_t i) {
    WriteModifier(urn_lives_[i], true);
    EndModifier(&urn_lives_[i], tick);
    free_entries_.push_back(urn_lives_[i].index);
    urn_lives_.erase(urn_lives_.begin() + static_cast<long>(i));
  };
  const bool drop = since == 8 * minute_ || since == 17 * minute_ + every_ ||
                    since == 18 * minute_;
  for (size_t i = 0; i < urn_lives_.size();) {
    if (urn_lives_[i].end_tick <= tick || (drop && urn_lives_[i].end_tick > end_)) {
      end_life(i);
    } else if (tick == end_) {
      EndModifier(&urn_lives_[i], 0);  // still on at the end
      urn_lives_.erase(urn_lives_.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  if (tick == end_) return;
  if (since % (45 * minute_ / 60) == 10 * minute_ / 60) Cooldown(tick);
  const Player& p = players_[0];
  if (since == 7 * minute_ + 10 * minute_ / 60 || since == 17 * minute_) {
    UrnModifier(tick, true);
    UrnRow(tick, "picked_up", p.pawn, p.slot);
  }
  if (since == 17 * minute_ + every_) UrnModifier(tick, true);  // afresh: no rows
  if (since == 8 * minute_) {
    UrnModifier(tick, false);
    UrnRow(tick, "returned", p.pawn, p.slot);
  }
  if (since == 8 * minute_ + 10) UrnModifier(tick, false);  // the same delivery
  if (since == 18 * minute_) UrnRow(tick, "dropped", p.pawn, p.slot);
  if (!points_.empty() && (since == 7 * minute_ || since == 8 * minute_ + 20 * minute_ / 60)) {
    SimEntity* point = points_[0];
    const bool enable = since == 7 * minute_;
    world_->Set(point, "m_iTeamNum", world_->Number(*point, "m_iTeamNum", 2));
    world_->Set(point, "m_bDisabled", world_->Number(*point, "m_bDisabled", enable ? 0 : 1));
    UrnRow(tick, enable ? "point_enabled" : "point_disabled", point, -1);
  }
  if (!patrons_.empty() && (since == 4 * minute_ || since == 5 * minute_) &&
      world_->entities().count(patrons_[0]->index) > 0 &&
      world_->entities().at(patrons_[0]->index).get() == patrons_[0]) {
    SimEntity* patron = patrons_[0];
    const int phase = since == 4 * minute_ ? 2 : 1;
    world_->Set(patron, "m_ePhase", world_->Number(*patron, "m_ePhase", phase));
    Truth(Json{{"kind", "patron_phases"}, {"tick", tick}, {"entity", patron->index},
               {"team", world_->GetInt(*patron, "m_iTeamNum", 0)}, {"phase", phase}}
              .dump());
  }
}

}  // namespace gem::synth
