// HeroItems: what the heroes of a synthetic Dota match buy, carry and
// learn, and the truth of it.
//
// - Purchases: each player buys 2-3 starting items in the pre-game, then
//   one of the players something about every 15 s: a DOTA_COMBATLOG_
//   PURCHASE entry (target the hero's combat-log name, value the item's
//   CombatLogNames index) and the item itself, a new item entity (class
//   CDOTA_Item; its name the EntityNames entry m_pEntity.m_nameStringable
//   Index points to; m_iCurrentCharges; m_hOwnerEntity the hero) in the
//   hero's first free slot (m_hItems: inventory and backpack, then the
//   stash). A recipe (item_recipe_magic_wand) is bought too: it combines two
//   of the hero's items, whose entities go, into a magic wand in the first
//   freed slot; without two items the recipe is carried as it is.
// - Items are used (a charge less; the last charge deletes the item and
//   empties the slot), swapped between two slots, and sold (deleted).
// - Abilities level up (m_iLevel of the hero's m_hAbilities entities):
//   about every 10 s a hero raises a basic ability (to 4 at most) or takes
//   a talent (special_bonus_*, to 1).
//
// The fixture's items and abilities are the heroes' from the start; their
// entities are this class's (Owns: the match leaves them out of its
// random changes).
//
// Truth (match truth lines), at the start for every filled position and
// then at each change: {"kind":"inventory", tick, slot, position, item
// (null when empty), charges, index, serial (the item entity's)}, the same
// with "ability" and level for abilities, and {"kind":"purchase", tick,
// slot, item} for each purchase.
#ifndef GEM_TOOLS_SYNTH_HERO_ITEMS_H_
#define GEM_TOOLS_SYNTH_HERO_ITEMS_H_

#include <cstdint>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tools/synth/combat_writer.h"
#include "tools/synth/player_stats.h"
#include "tools/synth/world.h"

namespace gem::synth {

class HeroItems {
 public:
  HeroItems(World* world, std::mt19937_64* rng, CombatWriter* combat, const PlayerStats* stats)
      : world_(world), rng_(rng), combat_(combat), stats_(stats) {}

  void Start(uint32_t start, uint32_t pregame, uint32_t horn, FILE* truth);
  // Twenty seconds after the horn, three flaws a reader must survive: a
  // purchase whose item index is past CombatLogNames (truth: item null), a
  // hero slot whose handle names no entity, an item entity without a name.
  void set_flaws(bool on) { flaws_ = on; }
  bool Owns(int32_t index) const { return owned_.count(index) != 0; }
  void Tick(uint32_t tick);
  uint64_t purchases() const { return purchases_; }
  uint64_t level_ups() const { return level_ups_; }

 private:
  // One position of a hero's array: the held entity (null: empty), its
  // name and value (charges or level) as last told.
  struct Held {
    SimEntity* e = nullptr;
    int32_t index = -1;  // the entity's, for telling entities apart
    uint32_t serial = 0;
    std::string name;
    int64_t value = 0;
    bool operator==(const Held& o) const {
      return index == o.index && serial == o.serial && name == o.name &&
             (e == nullptr || value == o.value);
    }
  };
  struct Hero {
    int slot = 0;
    SimEntity* hero = nullptr;
    std::vector<Held> items, abilities;
    std::vector<Held> told_items, told_abilities;  // as the truth last said
  };

  double Uniform() { return static_cast<double>((*rng_)() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : (*rng_)() % n; }
  std::string Indexed(const char* array, size_t i) const;
  // What `handle` names now (null when nothing).
  SimEntity* ByHandle(int64_t handle) const;
  int32_t EntityNameIndex(const std::string& name);
  void PutItem(Hero* h, size_t position, SimEntity* item);
  void Empty(Hero* h, size_t position, bool delete_entity);
  void Buy(Hero* h, uint32_t tick, bool starting);
  void UseOrMove(uint32_t tick);
  void LevelUp();
  void Tell(uint32_t tick);
  void Flaws(uint32_t tick);
  void TellOne(uint32_t tick, const Hero& h, const char* kind, size_t position, const Held& held);

  World* world_;
  std::mt19937_64* rng_;
  CombatWriter* combat_;
  const PlayerStats* stats_;
  FILE* truth_ = nullptr;
  std::vector<Hero> heroes_;
  std::set<int32_t> owned_;
  int32_t item_class_ = -1;
  uint32_t pregame_ = 0, horn_ = 0;
  uint64_t purchases_ = 0, level_ups_ = 0;
  bool flaws_ = false;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_HERO_ITEMS_H_
