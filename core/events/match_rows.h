// The match layer's rows: players, timelines, kills and wards in the terms
// analysts use, as a game module (core/<game>/) hands them to the sink.
//
// These types are game-agnostic: a game declares its own timeline columns
// after the common ones, and everything else has one shape for every game.
// Ticks are index ticks (see core/events/tick_order.h); string_views point into
// storage valid only during the sink call that carries them.
#ifndef GEM_CORE_EVENTS_MATCH_ROWS_H_
#define GEM_CORE_EVENTS_MATCH_ROWS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gem {

// One cell: NULL, an integer, a real or text.
struct MatchValue {
  enum class Kind : uint8_t { kNull, kInt, kReal, kText };
  Kind kind = Kind::kNull;
  // The one the kind names (32 bytes a cell: rows of many columns are
  // built for every combat-log entry).
  union {
    int64_t i = 0;
    double r;
  };
  std::string_view s;

  static MatchValue Null() { return MatchValue(); }
  static MatchValue Int(int64_t v) {
    MatchValue m;
    m.kind = Kind::kInt;
    m.i = v;
    return m;
  }
  static MatchValue Real(double v) {
    MatchValue m;
    m.kind = Kind::kReal;
    m.r = v;
    return m;
  }
  static MatchValue Text(std::string_view v) {
    MatchValue m;
    m.kind = Kind::kText;
    m.s = v;
    return m;
  }
  bool is_null() const { return kind == Kind::kNull; }
};

// A timeline column: its name, SQL type ("INTEGER", "REAL", "TEXT") and
// what it holds (TableColumn::doc).
struct MatchColumn {
  const char* name;
  const char* type;
  const char* doc = nullptr;
};

// The timeline columns every game has, in this order; a game's own columns
// follow them (GameModule::extra_columns).
inline constexpr MatchColumn kTimelineCommonColumns[] = {
    {"tick", "INTEGER", "the sample's tick"},
    {"game_time", "REAL", "the game clock then, seconds (negative before the start)"},
    {"slot", "INTEGER", "the player (players.slot)"},
    {"entity", "INTEGER", "the hero or pawn the player plays then (entities.entity)"},
    {"alive", "INTEGER",
     "1 when its m_lifeState is 0 (alive), else 0. In a client's recording, NULL while the "
     "hero or pawn is out of the recorder's view (left, not deleted), as is every column read "
     "from it (meta timeline_out_of_view counts those rows); entity stays"},
    {"x", "REAL", "its position: x, world units (CBodyComponent's cell and offset)"},
    {"y", "REAL", "its position: y, world units"},
    {"z", "REAL", "its position: z, world units"},
    {"pitch", "REAL",
     "degrees in [-180, 180): CS2's and Deadlock's m_angEyeAngles, Dota's "
     "CBodyComponent.m_angRotation"},
    {"yaw", "REAL", "degrees in [-180, 180), of the same field"},
    {"health", "INTEGER", "its m_iHealth"},
    {"max_health", "INTEGER",
     "its maximum health (Dota and CS2: the hero's or pawn's m_iMaxHealth; Deadlock: the "
     "controller's m_PlayerDataGlobal.m_iHealthMax)"},
    {"team", "INTEGER", "its m_iTeamNum"},
};
inline constexpr size_t kTimelineCommon = std::size(kTimelineCommonColumns);
// Positions of the common columns in a timeline row.
enum TimelineColumn : size_t {
  kTlTick, kTlGameTime, kTlSlot, kTlEntity, kTlAlive, kTlX, kTlY, kTlZ,
  kTlPitch, kTlYaw, kTlHealth, kTlMaxHealth, kTlTeam,
};

// One death of a player's hero or pawn.
struct KillRow {
  int64_t tick = 0;
  MatchValue game_time;
  int32_t victim = -1;               // slot
  std::optional<int32_t> killer;     // slot; none when not a player
  std::vector<int32_t> assisters;    // slots
  std::string weapon;                // "" when none
  std::optional<bool> headshot;      // games that say
  MatchValue x, y, z;                // the victim's position
  // The game's own columns (GameSchema::kill_columns), in order; missing
  // ones are NULL.
  std::vector<MatchValue> extra;
};

// One Dota observer or sentry ward's life.
struct WardRow {
  int64_t entity = 0;  // lifetime id
  std::string kind;    // "observer" or "sentry"
  MatchValue team;
  MatchValue owner;    // slot
  int64_t placed_tick = 0;
  MatchValue placed_time;   // the game clock then
  MatchValue removed_tick;  // NULL while it stands at the end
  MatchValue removed_time;
  MatchValue killed;        // 1 destroyed, 0 expired, NULL not known (the game's rule)
  std::string killer_name;  // the destroyer's combat-log name; "" when none
  MatchValue x, y, z;
};

struct PlayerRow {
  int32_t slot = 0;
  MatchValue player_id;
  MatchValue team;
  std::string name;
  uint64_t steam_id = 0;  // 0: unknown (bots)
  std::string hero;       // "" when none (CS2)
  int64_t controller = 0; // lifetime ids; 0 when none
  int64_t pawn = 0;
};

// What is known of the match at the end of the parse.
struct MatchSummary {
  std::string game;
  std::string map;
  uint64_t match_id = 0;
  MatchValue game_mode;
  MatchValue winner;       // team number
  std::string winner_name;
  double tick_rate = 0;    // ticks per second
  int64_t first_tick = -1;
  int64_t last_tick = -1;
  std::optional<int64_t> start_tick;  // the game clock reads 0 here
  MatchValue duration_s;
  MatchValue match_mode;   // the game's own enum, where its replay has one
  // Position rule of the game (meta), for gem_position.
  double cell_width = 0;
  double world_offset = 0;
  int64_t timeline_step = 0;  // ticks between timeline samples
  std::vector<PlayerRow> players;
  // Why the match-layer tables are empty, when they are.
  std::string note;
  // false: no game module ran (--no-match-layer, or a game gem does not
  // know): every match table stays empty.
  bool ran = false;
};

}  // namespace gem

#endif  // GEM_CORE_EVENTS_MATCH_ROWS_H_
