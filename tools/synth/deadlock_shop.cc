// DeadlockEvents' shop (deadlock_events.h): an item bought becomes an item
// entity in the buyer's pawn's m_vecAbilities, as the game holds items, so
// that gem's check of purchases against the inventory has something to
// find; under --flaws every third is never given (a purchase the entities
// do not bear out) until its buyer buys it again.
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>

#include "tools/synth/deadlock_events.h"
#include "tools/synth/json_truth.h"

namespace gem::synth {
namespace {

// Items by their names in the game, with the CUtlStringTokens of those
// names as numbers (MurmurHash2 as tests/core/deadlock/deadlock_tables_test.py computes
// it on its own), so that gem's StringToken is what the tests check.
struct ShopItem {
  const char* name;
  uint32_t token;
};
constexpr ShopItem kShopItems[] = {{"upgrade_sprint_booster", 3399065363u},
                                   {"upgrade_extra_charge", 3776945997u},
                                   {"upgrade_headshot_booster", 2010028405u},
                                   {"upgrade_close_range", 1342610602u},
                                   {"upgrade_rapid_rounds", 668299740u},
                                   {"upgrade_health", 3633614685u}};

}  // namespace

void DeadlockEvents::OpenShop() {
  SimTable* names = world_->FindTable("EntityNames");
  const int32_t item_class = world_->ClassId("CCitadel_Item_ActiveReload");
  if (names == nullptr || item_class < 0 || !world_->EnsureBaseline(item_class)) return;
  item_class_ = item_class;
  for (const ShopItem& item : kShopItems) {
    const int32_t index = static_cast<int32_t>(names->entries.size());
    world_->SetEntry(names, index, item.name, "");
    shop_.push_back({index, item.name, item.token});
  }
}

std::optional<DeadlockEvents::Ability> DeadlockEvents::Buy(uint32_t tick, const Player& p,
                                                           bool named) {
  if (item_class_ < 0 || shop_.empty()) return std::nullopt;
  const FieldPath* length_path = world_->PathOf(p.pawn->class_id, "m_vecAbilities");
  const Value length = world_->Get(*p.pawn, "m_vecAbilities");
  if (length_path == nullptr || length.kind != ValueKind::kUint) return std::nullopt;
  // A player whose last purchase was withheld buys that item again, and
  // gets it: the first purchase's chance ended with the second.
  size_t k;
  bool given = true;
  if (auto again = withheld_.find(p.slot); again != withheld_.end()) {
    k = again->second;
    withheld_.erase(again);
  } else {
    k = Below(shop_.size());
    given = !(flaws_ && ++bought_items_ % 3 == 0);
    if (!given) withheld_[p.slot] = k;
  }
  const Ability& item = shop_[k];
  if (given) {
    SimEntity* e = world_->Create(item_class_);
    if (e == nullptr) return std::nullopt;
    world_->Set(e, "m_pEntity.m_nameStringableIndex",
                world_->Number(*e, "m_pEntity.m_nameStringableIndex", item.index));
    world_->Set(e, "m_nSubclassID", world_->Number(*e, "m_nSubclassID", item.id));
    world_->Set(e, "m_hOwnerEntity", Value::Uint(p.pawn->handle()));
    FieldPath element = *length_path;
    element.last += 1;
    element.index[element.last] = static_cast<int32_t>(length.u);
    world_->SetPath(p.pawn, *length_path, Value::Uint(length.u + 1));
    world_->SetPath(p.pawn, element, Value::Uint(e->handle()));
  }
  // The check gem makes: the tick at which the buyer first holds it (its
  // purchase's, as the entity comes in the message's packet).
  if (named) {
    Truth(Json{{"kind", "purchase_checks"}, {"tick", tick}, {"slot", p.slot},
               {"item", item.name}, {"held_tick", given ? Json(tick) : Null()}}
              .dump());
  }
  return item;
}

}  // namespace gem::synth
