// DeadlockEvents: the user messages of a synthetic Deadlock match, and the
// truth of the rows gem's Deadlock tables should hold for them
// (core/deadlock/tables.h).
//
// On a world loaded from a Deadlock fixture, every packet may carry:
// - CCitadelUserMessage_Damage, about nine a second: a player's pawn or a
//   trooper hits a trooper, a pawn or an objective, with an ability (the
//   entity, or only its id: the ability entity's own m_nSubclassID, which
//   the game computes from its name) or none; one in three sends
//   pre_damage and damage_absorbed in the old int32 fields (2, 10);
// - every 30 s a KillStreak, PlayerRespawned, AbilitiesChanged,
//   ItemPurchaseNotification, ImportantAbilityUsed, MapPing, ChatWheel and
//   ChatMsg;
// - every 2 minutes from minute 3, the next objective (guardians, walkers,
//   base guardians, shrines, the patron: the fixture's own entities) is
//   damaged (BossDamaged), and 20 s later killed (BossKilled) and deleted
//   in the same packet;
// - the mid boss spawns at 10 minutes, and its Rejuvenator is claimed
//   (RejuvStatus) at 12; the urn's return point moves (ReturnIdol) every
//   5 minutes; a flex slot unlocks (FlexSlotUnlocked) at 15 and 25; the
//   banned heroes come in the first packet, GameOver in the last.
// - every 10 s a modifier is applied (an ActiveModifiers entry: a new
//   serial at a free index, a removed one's, or, one time in four, over a
//   live one's, which ends it) on a pawn or a trooper, cast by a player
//   with an ability; every 5 s a live one gains a stack; each ends, as a
//   REMOVED entry, 20 to 60 s after it began.
// - every 3 minutes from minute 1, one of the player's abilities that has
//   no upgrade bit at the start (the signature abilities) gains the next
//   one (m_nUpgradeBits, m_nUpgradeInfo in later builds: 1, 3, 7, 15).
// - at 20 minutes the game pauses for 30 s (the game rules'
//   m_bGamePaused, m_nPauseStartTick, m_iPauseTeam 3, then
//   m_nTotalPausedTicks): the clock stops.
// - the post-match record (PostMatchDetails) in the last packet, unless
//   `post_match_record` is false: the players with their stats every 5
//   minutes (souls by three sources; every fourth player's, as builds
//   before gold_sources, by PlayerStats' own fields alone), the items bought, two deaths, the
//   objectives killed, the mid boss, a pause, a damage matrix of two
//   sources and a path. It agrees with the replay's fields, except under
//   `flaws`: the net worth is 100 souls more than the controller's, and an
//   objective more is destroyed.
// - `flaws`: one Damage in 500 names no victim, one AbilitiesChanged in
//   four an id that is no name's token, and a banned hero id (999) that no
//   hero has.
//
// Entities are named as they are before the packet (the parser applies
// these messages before the packet's entities). Truth: one JSON line a
// row, "kind" the table's name, then the row's columns.
#ifndef GEM_TOOLS_SYNTH_DEADLOCK_EVENTS_H_
#define GEM_TOOLS_SYNTH_DEADLOCK_EVENTS_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tools/synth/json_truth.h"
#include "tools/synth/world.h"

namespace gem::synth {

class DeadlockEvents {
 public:
  DeadlockEvents(World* world, uint64_t seed, bool flaws, bool post_match_record = true);

  // Whether, in a Deadlock world, the messages name entities of the class
  // (players, troopers, abilities, objectives) or the class keeps the
  // clock (the game rules): they must stay as the fixture has them, so the
  // match's random nudges leave them alone. Always false elsewhere.
  bool Names(const std::string& class_name) const;
  // Whether the world is a Deadlock fixture's.
  bool active() const { return active_; }
  // Finds the players, troopers, abilities and objectives; `end_tick` is
  // the match's last packet.
  void Start(uint32_t end_tick, FILE* truth);
  // Adds the messages of the packet at `tick`, before its other changes.
  void Tick(uint32_t tick);
  // After every other change of the packet: the truth that needs the
  // packet's end state (the urn's positions).
  void EndPacket();
  uint64_t messages() const { return messages_; }

 private:
  struct Player {
    int32_t slot;
    SimEntity* controller;
    SimEntity* pawn;
  };
  struct Ability {
    int32_t index;
    std::string name;
    uint32_t id;  // its m_nSubclassID
  };

  double Uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  // A live entity of the list, or null.
  SimEntity* Pick(const std::vector<int32_t>& indexes);
  int32_t SlotOf(const SimEntity* e) const;  // -1 unless a player's pawn
  void Damage(uint32_t tick);
  void Periodic(uint32_t tick);
  // The shop (deadlock_shop.cc): item names in EntityNames and the class
  // items are made of; then an item bought by `p`, given to its pawn (not
  // under --flaws, every third), with the truth of gem's check when the
  // purchase names it. None when the fixture has no item class.
  void OpenShop();
  std::optional<Ability> Buy(uint32_t tick, const Player& p, bool named);
  void Objective(uint32_t tick);
  void MidBoss(uint32_t tick, uint32_t since);
  // An objective's m_iLane as the index should hold it (null: no field).
  Json LaneOf(const SimEntity& e);
  void Modifiers(uint32_t tick);
  void Upgrade(uint32_t tick);
  void PostMatchRecord(uint32_t tick);
  void Pause(uint32_t tick);
  void Truth(const std::string& line) {
    if (truth_ != nullptr) std::fprintf(truth_, "%s\n", line.c_str());
  }
  // A modifier's life as gem's modifiers table should hold it.
  struct ModifierLife {
    int32_t index;
    uint32_t serial;
    uint32_t end_tick;
    std::string entry_head;  // the entry's fixed fields, serialized
    int32_t stacks;
    std::string truth;  // the row without removed_tick and stacks
  };
  // A new life at entry `life->index`: its entry written, its truth kept.
  void BeginModifier(ModifierLife* life, uint32_t tick, uint32_t end_tick,
                     const SimEntity* parent, const Player& caster, const Ability* ability,
                     std::optional<uint32_t> ability_id, uint32_t modifier_id,
                     const char* modifier_name, float duration);
  // The lowest free ActiveModifiers entry.
  int32_t FreeEntry(SimTable* table);
  // The urn's carrier and deliveries, a delivery point, the patron's
  // phases and the match mode (deadlock_urn.cc).
  void UrnAndPatron(uint32_t tick);
  void Cooldown(uint32_t tick);
  void UrnModifier(uint32_t tick, bool golden_idol);
  void UrnRow(uint32_t tick, const char* event, const SimEntity* e, int32_t slot);
  void WriteUrnRow(uint32_t tick, const char* event, const SimEntity* e, int32_t slot);
  struct UrnEvent {
    uint32_t tick;
    const char* event;
    const SimEntity* e;
    int32_t slot;
  };
  std::vector<UrnEvent> urn_rows_;  // this packet's, written at its end
  void WriteModifier(const ModifierLife& life, bool removed);
  void EndModifier(ModifierLife* life, uint32_t tick);
  void Emit(uint32_t type, const std::string& payload, const std::string& truth);

  World* world_;
  std::mt19937_64 rng_;
  bool flaws_;
  bool post_match_record_;
  // What the record repeats: items bought, objectives killed (time, first
  // damage), the mid boss's kill.
  struct Bought {
    uint32_t tick;
    int32_t slot;
    uint32_t id;
    std::string name;
  };
  std::vector<Bought> bought_;
  std::vector<std::pair<uint32_t, uint32_t>> killed_objectives_;  // (damaged, killed) ticks
  std::vector<int32_t> killed_teams_;
  SimEntity* rules_ = nullptr;
  bool active_ = false;
  FILE* truth_ = nullptr;
  uint32_t start_ = 0, end_ = 0;
  // Ticks of 30 s, a minute, 20 s, 5 s and 10 s at the world's tick rate;
  // the chance of a Damage message in a packet.
  uint32_t every_ = 900, minute_ = 1800, kill_after_ = 600, stack_every_ = 150,
           modifier_every_ = 300;
  double damage_chance_ = 0.6;
  std::vector<Player> players_;
  std::vector<int32_t> troopers_;
  std::vector<Ability> abilities_;
  std::vector<Ability> shop_;  // items: (EntityNames entry, name, token)
  int32_t item_class_ = -1;
  uint64_t bought_items_ = 0;
  std::map<int32_t, size_t> withheld_;  // by slot: the shop item not given
  std::vector<int32_t> objectives_;  // in the order they fall
  size_t next_objective_ = 0;
  int32_t damaged_ = -1;  // the objective damaged and not yet killed
  SimEntity* mid_boss_ = nullptr;  // alive
  uint32_t mid_boss_killed_tick_ = 0;
  uint64_t messages_ = 0;
  uint64_t damage_count_ = 0, changes_ = 0;
  std::vector<ModifierLife> modifiers_;  // live
  std::vector<ModifierLife> urn_lives_;  // live, the urn's: never overwritten at random
  std::vector<SimEntity*> points_, patrons_;  // delivery points; CNPC_Boss_Tier3
  std::vector<int32_t> free_entries_;
  uint32_t next_serial_ = 100000;
  std::vector<int32_t> signature_;  // abilities with no upgrade bit at the start
  std::vector<int> upgrade_levels_;   // by signature_ position
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_DEADLOCK_EVENTS_H_
