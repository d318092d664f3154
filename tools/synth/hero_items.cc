#include "tools/synth/hero_items.h"

#include <algorithm>

#include "core/fields/value.h"

namespace gem::synth {
namespace {

constexpr int32_t kCombatLogPurchase = 11;
constexpr uint32_t kEmptyHandle = 0xFFFFFF;
constexpr size_t kCarried = 9;    // inventory 0-5 and backpack 6-8
constexpr size_t kStashEnd = 15;  // the stash, 9-14

struct ItemKind {
  const char* name;
  int charges;
  bool consumable;
};
constexpr ItemKind kItems[] = {
    {"item_tango", 3, true},         {"item_flask", 1, true},
    {"item_clarity", 1, true},       {"item_faerie_fire", 1, true},
    {"item_enchanted_mango", 1, true}, {"item_ward_observer", 1, true},
    {"item_branches", 0, false},     {"item_magic_stick", 0, false},
    {"item_boots", 0, false},        {"item_quelling_blade", 0, false},
    {"item_blades_of_attack", 0, false},
};
constexpr const char* kRecipe = "item_recipe_magic_wand";
constexpr const char* kCombined = "item_magic_wand";

bool Consumable(const std::string& name) {
  for (const ItemKind& k : kItems) {
    if (name == k.name) return k.consumable;
  }
  return false;
}

}  // namespace

std::string HeroItems::Indexed(const char* array, size_t i) const {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s.%04zu", array, i);
  return buf;
}

SimEntity* HeroItems::ByHandle(int64_t handle) const {
  if (handle < 0 || (handle & 0x3FFF) == 0x3FFF) return nullptr;
  auto it = world_->entities().find(static_cast<int32_t>(handle & 0x3FFF));
  if (it == world_->entities().end() || it->second->handle() != handle) return nullptr;
  return it->second.get();
}

int32_t HeroItems::EntityNameIndex(const std::string& name) {
  SimTable* names = world_->FindTable("EntityNames");
  if (names == nullptr) return -1;
  for (size_t i = 0; i < names->entries.size(); ++i) {
    if (names->entries[i].name == name) return static_cast<int32_t>(i);
  }
  const int32_t index = static_cast<int32_t>(names->entries.size());
  world_->SetEntry(names, index, name, "");
  return index;
}

void HeroItems::Start(uint32_t start, uint32_t pregame, uint32_t horn, FILE* truth) {
  truth_ = truth;
  pregame_ = pregame;
  horn_ = horn;
  const int32_t generic = world_->ClassId("CDOTA_Item");
  item_class_ = world_->EnsureBaseline(generic) ? generic : -1;
  for (const PlayerStats::View& p : stats_->players()) {
    if (p.hero == nullptr) continue;
    Hero h;
    h.slot = p.slot;
    h.hero = p.hero;
    for (auto [array, held, value] :
         {std::tuple{"m_hItems", &h.items, "m_iCurrentCharges"},
          std::tuple{"m_hAbilities", &h.abilities, "m_iLevel"}}) {
      for (size_t i = 0; world_->PathOf(p.hero->class_id, Indexed(array, i)) != nullptr; ++i) {
        Held x;
        x.e = ByHandle(world_->GetInt(*p.hero, Indexed(array, i), -1));
        if (x.e != nullptr) {
          x.index = x.e->index;
          x.serial = x.e->serial;
          x.name = world_->EntityName(*x.e);
          x.value = world_->GetInt(*x.e, value, 0);
          owned_.insert(x.e->index);
        }
        held->push_back(x);
      }
    }
    h.told_items.resize(h.items.size());
    h.told_abilities.resize(h.abilities.size());
    heroes_.push_back(std::move(h));
  }
  Tell(start);
}

void HeroItems::PutItem(Hero* h, size_t position, SimEntity* item) {
  Held& x = h->items[position];
  x.e = item;
  x.index = item->index;
  x.serial = item->serial;
  x.name = world_->EntityName(*item);
  x.value = world_->GetInt(*item, "m_iCurrentCharges", 0);
  world_->Set(h->hero, Indexed("m_hItems", position), Value::Uint(item->handle()));
}

void HeroItems::Empty(Hero* h, size_t position, bool delete_entity) {
  Held& x = h->items[position];
  if (x.e != nullptr && delete_entity) {
    owned_.erase(x.e->index);
    world_->Delete(x.e);
  }
  x = Held();
  world_->Set(h->hero, Indexed("m_hItems", position), Value::Uint(kEmptyHandle));
}

void HeroItems::Buy(Hero* h, uint32_t tick, bool starting) {
  const bool recipe = !starting && Uniform() < 0.15;
  const ItemKind& kind = kItems[Below(std::size(kItems))];
  const std::string name = recipe ? kRecipe : kind.name;
  proto::CMsgDOTACombatLogEntry entry;
  entry.set_type(kCombatLogPurchase);
  entry.set_target_name(combat_->Name(stats_->HeroName(h->hero)));
  entry.set_is_target_hero(true);
  entry.set_value(combat_->Name(name));
  entry.set_timestamp(static_cast<float>(tick / 30.0));
  combat_->Write(tick, entry);
  ++purchases_;
  if (truth_ != nullptr) {
    std::fprintf(truth_, "{\"kind\":\"purchase\",\"tick\":%u,\"slot\":%d,\"item\":\"%s\"}\n", tick,
                 h->slot, name.c_str());
  }
  if (item_class_ < 0) return;
  // Two carried items (not the recipe's own) make a wand with the recipe.
  std::string made = name;
  int charges = recipe ? 0 : kind.charges;
  std::vector<size_t> parts;
  if (recipe) {
    for (size_t k = 0; k < std::min(kCarried, h->items.size()) && parts.size() < 2; ++k) {
      if (h->items[k].e != nullptr && h->items[k].name != kRecipe) parts.push_back(k);
    }
    if (parts.size() == 2) {
      made = kCombined;
      for (size_t k : parts) Empty(h, k, true);
    }
  }
  size_t free = h->items.size();
  for (size_t k = 0; k < std::min(kStashEnd, h->items.size()) && free == h->items.size(); ++k) {
    if (h->items[k].e == nullptr) free = k;
  }
  if (free == h->items.size()) return;  // nowhere to put it: bought, not carried
  SimEntity* item = world_->Create(item_class_);
  if (item == nullptr) return;
  owned_.insert(item->index);
  world_->Set(item, "m_pEntity.m_nameStringableIndex",
              world_->Number(*item, "m_pEntity.m_nameStringableIndex", EntityNameIndex(made)));
  world_->Set(item, "m_iCurrentCharges", world_->Number(*item, "m_iCurrentCharges", charges));
  world_->Set(item, "m_iInitialCharges", world_->Number(*item, "m_iInitialCharges", charges));
  world_->Set(item, "m_hOwnerEntity", Value::Uint(h->hero->handle()));
  world_->Set(item, "m_flPurchaseTime",
              world_->Number(*item, "m_flPurchaseTime", static_cast<double>(tick) / 30.0));
  PutItem(h, free, item);
}

void HeroItems::UseOrMove(uint32_t tick) {
  (void)tick;
  if (heroes_.empty()) return;
  Hero& h = heroes_[Below(heroes_.size())];
  const size_t carried = std::min(kCarried, h.items.size());
  if (carried == 0) return;
  const double roll = Uniform();
  const size_t k = Below(carried);
  Held& x = h.items[k];
  if (roll < 0.6) {
    // Used: a charge less; the last one uses the item up.
    if (x.e == nullptr || !Consumable(x.name) || x.value <= 0) return;
    if (x.value == 1) {
      Empty(&h, k, true);
      return;
    }
    --x.value;
    world_->Set(x.e, "m_iCurrentCharges", world_->Number(*x.e, "m_iCurrentCharges", x.value));
  } else if (roll < 0.85) {
    // Swapped with another carried slot.
    const size_t j = Below(carried);
    if (j == k || (h.items[j].e == nullptr && x.e == nullptr)) return;
    std::swap(h.items[j], h.items[k]);
    for (size_t p : {j, k}) {
      world_->Set(h.hero, Indexed("m_hItems", p),
                  Value::Uint(h.items[p].e ? h.items[p].e->handle() : kEmptyHandle));
    }
  } else if (x.e != nullptr && !Consumable(x.name)) {
    Empty(&h, k, true);  // sold
  }
}

void HeroItems::LevelUp() {
  if (heroes_.empty()) return;
  Hero& h = heroes_[Below(heroes_.size())];
  if (h.abilities.empty()) return;
  const size_t k = Below(std::min<size_t>(h.abilities.size(), 16));
  Held& x = h.abilities[k];
  if (x.e == nullptr || x.name == "generic_hidden") return;
  const bool talent = x.name.rfind("special_bonus_", 0) == 0;
  const bool basic = k < 6;
  if (!talent && !basic) return;
  if (x.value >= (talent ? 1 : 4)) return;
  ++x.value;
  world_->Set(x.e, "m_iLevel", world_->Number(*x.e, "m_iLevel", x.value));
  ++level_ups_;
}

void HeroItems::Tick(uint32_t tick) {
  if (tick >= pregame_ && tick < horn_) {
    // Starting items: 2-3 each over the pre-game.
    const double per_packet = 2.5 * 2 / std::max<double>(horn_ - pregame_, 2);
    for (Hero& h : heroes_) {
      if (Uniform() < per_packet) Buy(&h, tick, true);
    }
  } else if (tick >= horn_ && !heroes_.empty() && Uniform() < 2.0 / (30 * 15)) {
    Buy(&heroes_[Below(heroes_.size())], tick, false);
  }
  if (flaws_ && tick == horn_ + 600) Flaws(tick);
  if (tick >= pregame_ && Uniform() < 0.05) UseOrMove(tick);
  if (Uniform() < 2.0 / (30 * 10)) LevelUp();
  Tell(tick);
}

void HeroItems::Flaws(uint32_t tick) {
  if (heroes_.empty() || item_class_ < 0) return;
  Hero& h = heroes_[0];
  // A purchase of an item CombatLogNames does not name.
  const SimTable* names = world_->FindTable("CombatLogNames");
  proto::CMsgDOTACombatLogEntry entry;
  entry.set_type(kCombatLogPurchase);
  entry.set_target_name(combat_->Name(stats_->HeroName(h.hero)));
  entry.set_is_target_hero(true);
  entry.set_value(static_cast<uint32_t>((names ? names->entries.size() : 0) + 1000));
  entry.set_timestamp(static_cast<float>(tick / 30.0));
  combat_->Write(tick, entry);
  ++purchases_;
  if (truth_ != nullptr) {
    std::fprintf(truth_, "{\"kind\":\"purchase\",\"tick\":%u,\"slot\":%d,\"item\":null}\n",
                 tick, h.slot);
  }
  if (h.items.size() < kCarried) return;
  // The last backpack slot names an entity that is not there.
  if (h.items[kCarried - 1].e != nullptr) Empty(&h, kCarried - 1, true);
  world_->Set(h.hero, Indexed("m_hItems", kCarried - 1), Value::Uint((1u << 14) | 16000u));
  // The one before holds an item without a name.
  if (h.items[kCarried - 2].e != nullptr) Empty(&h, kCarried - 2, true);
  SimEntity* item = world_->Create(item_class_);
  if (item == nullptr) return;
  owned_.insert(item->index);
  world_->Set(item, "m_pEntity.m_nameStringableIndex",
              world_->Number(*item, "m_pEntity.m_nameStringableIndex", -1));
  world_->Set(item, "m_iCurrentCharges", world_->Number(*item, "m_iCurrentCharges", 2));
  world_->Set(item, "m_hOwnerEntity", Value::Uint(h.hero->handle()));
  PutItem(&h, kCarried - 2, item);
}

void HeroItems::TellOne(uint32_t tick, const Hero& h, const char* kind, size_t position,
                        const Held& held) {
  if (truth_ == nullptr) return;
  const bool items = kind[0] == 'i';
  std::string line = "{\"kind\":\"" + std::string(kind) + "\",\"tick\":" + std::to_string(tick) +
                     ",\"slot\":" + std::to_string(h.slot) +
                     ",\"position\":" + std::to_string(position) + ",\"" +
                     (items ? "item" : "ability") + "\":";
  if (held.e == nullptr) {
    line += std::string("null,\"") + (items ? "charges" : "level") +
            "\":null,\"index\":null,\"serial\":null}\n";
  } else {
    line += held.name.empty() ? "null" : "\"" + held.name + "\"";
    line += std::string(",\"") + (items ? "charges" : "level") + "\":" +
            std::to_string(held.value) + ",\"index\":" + std::to_string(held.index) +
            ",\"serial\":" + std::to_string(held.serial) + "}\n";
  }
  std::fputs(line.c_str(), truth_);
}

void HeroItems::Tell(uint32_t tick) {
  for (Hero& h : heroes_) {
    for (size_t k = 0; k < h.items.size(); ++k) {
      if (h.items[k] == h.told_items[k]) continue;
      TellOne(tick, h, "inventory", k, h.items[k]);
      h.told_items[k] = h.items[k];
    }
    for (size_t k = 0; k < h.abilities.size(); ++k) {
      if (h.abilities[k] == h.told_abilities[k]) continue;
      TellOne(tick, h, "ability", k, h.abilities[k]);
      h.told_abilities[k] = h.abilities[k];
    }
  }
}

}  // namespace gem::synth
