// Cs2Match: a synthetic CS2 match on top of a CS2 fixture's signon, and
// the truth of every row gem's CS2 tables should hold (core/cs2/*.h).
//
// The fixture's ten controllers and their pawns play `rounds` rounds
// (24: two halves of 12, sides switched between), each encoded both as
// game events and as the fields the game rules, teams, pawns and
// controllers carry, by the rules core/cs2 decodes:
//
// - A round starts (m_nRoundStartCount + 1, m_bFreezePeriod, round_start;
//   round_officially_ended for the round before) with every player alive
//   at their side's spawn, buys (money, m_iCashSpentThisRound, equipment)
//   during a 15 s freeze (round_freeze_end), then up to 1:55 of play at
//   a competitive match's pace (a shot in 2.6 s and a hit in 10 s a
//   player, a grenade in 2.6 s):
//   players walk, shoot (weapon_fire), hit (player_hurt, health, armor)
//   and kill (player_death with its keys, kills/deaths/assists and kill
//   rewards on the controllers), throw grenades (projectile entities
//   flying a path, their detonate and expire events, an inferno for a
//   molotov or incendiary, flashes blinding players: player_blind and
//   m_flFlashDuration; an HE's damage), and the Ts carry the C4 (CC4) to
//   a site, plant it (bomb_beginplant, bomb_planted, a CPlantedC4) and the
//   CTs defuse it (bomb_begindefuse, bomb_defused) or it explodes. The
//   round ends (m_nRoundEndCount + 1, m_iRoundWinStatus, m_eRoundWinReason,
//   m_totalRoundsPlayed, the CCSTeam scores, round_end) by elimination,
//   the bomb or the clock; 7 s later the next starts.
// - `round_events` false leaves out round_start, round_freeze_end,
//   round_end, round_officially_ended and player_blind (as many real
//   demos do): the tables must then come out the same from the fields.
//   `round_start_events` false leaves out round_start alone.
// - `flaws`: in round 2 a player_hurt whose `health` is a string, a
//   grenade whose m_hThrower names no entity, and a second round_end;
//   round 3 has no kills (no hits, no grenade damage).
//
// A packet every tick, as GOTV records them; a live pawn sends about
// fifteen fields a tick (position, velocity, angles, prediction and weapon
// animation state), as the fixtures' do.
//
// - A kill with no teammate of the killer who hurt the victim credits the
//   teammate who blinded the victim in the last 3 s, if any: an assist
//   with assistedflash.
//
// Truth (JSON lines, "kind" first): round, damage, shot, kill, grenade,
// path, flash, bomb and economy rows, in the tables' own terms; and, from
// the match's own bookkeeping of who is alive, opening, trade and clutch
// rows (cs2_duels.cc: the rules of core/cs2/stats_views.h, with a trade
// window of 5 s).
#ifndef GEM_TOOLS_SYNTH_CS2_MATCH_H_
#define GEM_TOOLS_SYNTH_CS2_MATCH_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/util/status.h"
#include "tools/synth/replay_writer.h"
#include "tools/synth/world.h"

namespace gem::synth {

struct Cs2Options {
  int rounds = 24;
  uint64_t seed = 1;
  bool round_events = true;
  bool round_start_events = true;  // false: round_start alone left out
  bool flaws = false;
  uint32_t full_packet_interval = 3840;  // ticks
  // > 0: once round N has ended the game restarts (mp_restartgame, as
  // after a knife round): scores, money and the round count start over,
  // and `rounds` more are played. The rounds it voids have no round or
  // economy truth rows (their kills, damages and so on keep theirs).
  int restart_after = 0;
  // false: no player_hurt events (as CS2 matchmaking replays once had
  // none); the damages' truth stays what the game did.
  bool hurt_events = true;
  // Game events left out by name (--drop-event), as a client's recording
  // or a server's configuration can leave them out; the truth stays what
  // the game did.
  std::vector<std::string> dropped_events;
  // >= 0: a client's recording of the player in this slot (cs2_view.cc):
  // his teammates always in view, an enemy only within kViewRange units;
  // no full packets; a player_activate of his first; the decoy
  // projectile's class baseline never sent. Truth "view" lines
  // say when each player left and came back into view.
  int32_t pov_slot = -1;
};

struct Cs2Counters {
  uint64_t rounds = 0, shots = 0, damages = 0, kills = 0, grenades = 0, flashes = 0,
           bomb_events = 0;
  uint32_t last_tick = 0;
};

class Cs2Match {
 public:
  Cs2Match(World* world, const Cs2Options& options);
  // Writes the whole replay and, when `truth` is set, its truth lines.
  Status Run(ReplayWriter* out, FILE* truth);
  const Cs2Counters& counters() const { return counters_; }

 private:
  struct Player {
    int32_t slot = 0;
    SimEntity* controller = nullptr;
    SimEntity* pawn = nullptr;
    int team = 2;
    bool alive = true;
    double x = 0, y = 0, z = 0, tx = 0, ty = 0, yaw = 0, vx = 0, vy = 0;
    int health = 100, armor = 0;
    int money = 800, start_money = 800, spent = 0, equipment = 200;
    int kills = 0, deaths = 0, assists = 0, kill_reward = 0, reward_at_start = 0;
    int total_spent = 0, freeze_equipment = 0;
    float flash = 0;
    int32_t flashed_by = -1;  // who last blinded the player, and when
    uint32_t flashed_at = 0;
    std::vector<int32_t> hurt_by;  // this round's attackers
    bool seen = true;              // in the recorder's view (--pov)
    // What the player holds (cs2_aim.cc): two weapon entities, the item
    // in hand and its name as events give it.
    SimEntity* primary = nullptr;
    SimEntity* pistol = nullptr;
    int item = 0;
    std::string weapon = "ak47";
    // The burst being fired: m_iShotsFired, the last shot's tick, the
    // bullets still to come and when the next goes.
    int shots_fired = 0, burst_left = 0;
    uint32_t last_shot = 0, next_bullet = 0;
    // Who hit the player this tick (hit_tick): the game spots a shooter's
    // victim at once.
    uint64_t hit_by = 0;
    uint32_t hit_tick = 0;
    // The grenades held (cs2_utility.cc): the pawn's m_iAmmo 13-17 (HE,
    // flashbang, smoke, fire, decoy), the fire grenade's item (46 molotov,
    // 48 incendiary) and its weapon entity when one is in m_hMyWeapons;
    // and the counts at the end of the tick before (what a death reads).
    int ammo[5] = {0, 0, 0, 0, 0}, ammo_before[5] = {0, 0, 0, 0, 0};
    int fire_item = 0, fire_item_before = 0;
    SimEntity* fire = nullptr;
  };
  // An enemy spotted, as the truth's sightings rows say (cs2_aim.cc).
  struct Sighting {
    int32_t observer, target;
    uint32_t tick;
    int64_t fov_tick = -1;
    double pitch = 0, yaw = 0, head_angle = 0, distance = 0;
    int round = 0;
  };
  // A death of this round, as the duels' truth reads it (cs2_duels.cc).
  struct Death {
    uint32_t tick;
    int32_t killer;  // -1: none
    int32_t victim;
    int killer_team, victim_team;
    std::string weapon;
    bool headshot;
  };
  struct Clutch {
    int32_t slot;
    int team, opponents;
    uint32_t tick;
    size_t after;  // deaths_ before its start, its own included
  };
  struct Grenade {
    int64_t id = 0;
    std::string kind;
    SimEntity* e = nullptr;
    SimEntity* fire = nullptr;  // a molotov's inferno
    int thrower = -1;
    uint32_t throw_tick = 0, detonate_tick = 0, end_tick = 0;
    double sx = 0, sy = 0, sz = 0, ex = 0, ey = 0;
    double x = 0, y = 0, z = 0;  // where it went off
    double round = 0;
    bool detonated = false;
    float lx = 0, ly = 0, lz = 0;  // the path's last point
    bool has_point = false;
  };
  enum class BombState { kCarried, kPlanting, kPlanted, kDefusing, kDone, kDropped };

  double Uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  bool Find();
  void StartRound(uint32_t tick);
  void FreezeEnd(uint32_t tick);
  void EndRound(uint32_t tick, int winner, int reason);
  // The round's truth rows (official end -1: none).
  void RoundTruth(int64_t official_end);
  void FinishRound() { RoundTruth(-1); }
  // Options::restart_after: the game starts over at `tick`.
  void Restart(uint32_t tick);
  void Buy(Player* p);
  // Grenades bought with a buy of `spend` (cs2_utility.cc): their own RNG,
  // so that the match's other choices stay as they were.
  void BuyUtility(Player* p, int spend);
  // The pawn's m_iAmmo and m_hMyWeapons as `p` holds its grenades.
  void SetAmmo(Player* p);
  // A thrown grenade of `kind` leaves the thrower's hands.
  void UseGrenade(Player* p, const std::string& kind);
  // A death empties the hands.
  void DropUtility(Player* p);
  // The kill truth's utility_held (a JSON object) and utility_value, from
  // the counts at the end of the tick before.
  std::string UtilityTruth(const Player& p) const;
  int Index(int32_t slot) const;
  // Whether damage spares `p` (a carrier bound for a site, the planter and
  // the defuser at work).
  bool Protected(const Player& p) const;
  void Play(uint32_t tick);
  // --pov: the players' pawns that left the recorder's view or came back
  // this tick (cs2_view.cc).
  void UpdateView(uint32_t tick);
  static constexpr double kViewRange = 1500;
  void Fight(uint32_t tick);
  // A weapon_fire of `p`'s, with its truth.
  void Shot(uint32_t tick, Player* p, const std::string& weapon);
  void Hurt(uint32_t tick, Player* attacker, Player* victim, int damage, int hitgroup,
            const std::string& weapon);
  void Place(SimEntity* e, double x, double y, double z);
  void PlacePlayer(Player* p);
  void Money(Player* p);
  Player* RandomAlive(int team);
  int Alive(int team) const;
  // The world position an entity's fields now say (what a reader reads).
  void WorldPos(const SimEntity& e, double* x, double* y, double* z);
  std::map<std::string, Value> Who(const char* key, const Player* p) const;
  void Event(const std::string& name, std::map<std::string, Value> keys);

  // Aim (cs2_aim.cc): the players' weapons, the spotted masks the game
  // keeps (an enemy or teammate alive within kSpotRange of a live pawn, or
  // who hit it this tick)
  // and the sightings they make, turning to a victim, counter-strafing
  // and bursts.
  static constexpr double kSpotRange = 1000;
  void ArmPlayers();
  // `p` takes `item` (7 ak47, 16 m4a1, 4 glock, 61 usp_silencer) in hand,
  // or none (item 0: as a dead pawn holds).
  void Hold(Player* p, int item);
  // The round's weapons: pistols in a half's first round, else a rifle
  // for who spent 2,700 or more.
  void HoldForRound(Player* p, bool bought);
  void Spot(uint32_t tick);
  // Faces `p` to `target`'s head before a shot that hits it.
  void AimAt(Player* p, const Player& target);
  // Before a shot: half the time the shooter stops almost dead first.
  void MaybeCounterStrafe(Player* p);
  // The bullets of bursts under way, and new bursts.
  void Bursts(uint32_t tick);
  // The eye (origin raised by the view offset) of `p`'s pawn, as read.
  void EyeOf(const Player& p, double out[3]);
  // Whether `target` has `observer` spotted and both are alive enemies.
  bool SeenNow(const Player& observer, const Player& target) const;
  void SightingTruth(const Sighting& s, int64_t end_tick, const char* ended);
  // The sightings still open as the match ends, with no end.
  void FinishSightings();
  std::vector<Sighting> sightings_;
  std::map<int32_t, uint64_t> masks_;  // each pawn's mask as last sent
  int32_t weapon_class_ = -1;

  // Grenades and the bomb (cs2_utility.cc).
  void Throw(uint32_t tick, Player* p);
  void Grenades(uint32_t tick);
  void Bomb(uint32_t tick);
  void BombRow(uint32_t tick, const char* kind, const Player* p, const std::string& site,
               const SimEntity* at);
  void FinishGrenades();

  // The duels' truth (cs2_duels.cc): each death as it happens, and the
  // round's opening duel, trades and clutches when its rows are written.
  void OnDeath(uint32_t tick, const Player* killer, const Player& victim,
               const std::string& weapon, bool headshot);
  void DuelsTruth();

  // Whether this round has no kills (flaws: round 3).
  bool NoKills() const { return options_.flaws && round_ == 3; }

  void Truth(const std::string& line);
  // A round's round and economy rows, held until the match is over (a
  // restart voids them) and then written.
  void RoundsTruth(const std::string& line) { rounds_truth_.push_back(line); }
  static std::string Num(double v);
  static std::string Opt(int64_t v, bool present);

  World* world_;
  Cs2Options options_;
  std::mt19937_64 rng_;
  std::mt19937_64 utility_rng_;  // grenades bought
  FILE* truth_ = nullptr;
  std::vector<Player> players_;
  SimEntity* rules_ = nullptr;
  SimEntity* team_entity_[4] = {};  // by team number 2, 3
  int32_t c4_class_ = -1, planted_class_ = -1, inferno_class_ = -1;
  std::map<std::string, int32_t> projectile_class_;
  uint32_t tick_ = 0;
  int round_ = 0;  // the round in play, 0 before the first
  bool restarted_ = false;
  std::vector<std::string> rounds_truth_;
  int score_[4] = {};
  uint32_t round_start_ = 0, freeze_end_ = 0, live_until_ = 0, next_start_ = 0;
  bool in_freeze_ = false, live_ = false, ended_ = false;
  int winner_ = 0, reason_ = 0;
  uint32_t second_end_ = 0;  // flaws: the tick of the second round_end
  bool flaw_hurt_done_ = false, flaw_grenade_done_ = false, flaw_shot_done_ = false;
  int start_count_ = 0, end_count_ = 0;
  // The round row being built.
  std::string round_site_;
  int64_t plant_tick_ = -1;
  bool defused_ = false;
  std::vector<Death> deaths_;
  std::vector<Clutch> clutches_;
  std::vector<Grenade> grenades_;
  uint64_t next_grenade_ = 1;
  SimEntity* c4_ = nullptr;
  SimEntity* planted_ = nullptr;
  BombState bomb_ = BombState::kDone;
  int carrier_ = -1, defuser_ = -1;
  int site_ = 0;
  uint32_t bomb_at_ = 0, defuse_at_ = 0;
  bool round_events_ = true;
  Cs2Counters counters_;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_CS2_MATCH_H_
