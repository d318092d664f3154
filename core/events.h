// The non-entity events a replay carries, as the parser reports them.
// Game-agnostic except CombatLogEntry and the Dota part of ReplayMetadata,
// which only Dota replays fill.
#ifndef GEM_CORE_EVENTS_H_
#define GEM_CORE_EVENTS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/value.h"

namespace gem {

namespace proto {
class CMsgDOTACombatLogEntry;
}

// CDemoFileHeader, as read.
struct ReplayHeader {
  std::string demo_file_stamp;
  int32_t network_protocol = 0;  // patch_version
  std::string server_name;
  std::string client_name;
  std::string map_name;
  std::string game_directory;
  int32_t fullpackets_version = 0;
  std::string demo_version_name;
  std::string demo_version_guid;
  int32_t build_num = 0;
  std::string game;
  int32_t server_start_tick = 0;
};

// A legacy (Source 1 style) game event with its keys decoded by the event
// list's descriptors. Key values are kString, kFloat, kInt, kBool or kUint.
struct GameEventKey {
  std::string_view name;
  int32_t type = 0;  // 1 string, 2 float, 3 long, 4 short, 5 byte, 6 bool, 7 uint64, ...
  Value value;
};
struct GameEvent {
  int32_t id = -1;
  std::string_view name;
  std::vector<GameEventKey> keys;
};

// One Dota combat-log entry. `entry` holds every raw field (name fields
// are indexes into the CombatLogNames table); the names are resolved as
// the table stood when the entry arrived ("" when the index has no entry).
struct CombatLogEntry {
  enum class Source : uint8_t {
    kHltv,             // DOTA_UM_CombatLogDataHLTV
    kBulk,             // DOTA_UM_CombatLogBulkData
    kLegacyGameEvent,  // the dota_combatlog game event
  };
  Source source = Source::kHltv;
  const proto::CMsgDOTACombatLogEntry* entry = nullptr;
  std::string_view type_name;  // "DOTA_COMBATLOG_DAMAGE", or "" if unknown
  std::string_view target_name;
  std::string_view target_source_name;
  std::string_view attacker_name;
  std::string_view damage_source_name;
  std::string_view inflictor_name;
  std::string_view value_name;  // purchases: the item's name
};
const char* CombatLogSourceName(CombatLogEntry::Source source);

// A text chat line: Dota's CDOTAUserMsg_ChatMessage, or the engine's
// SayText2 (CS2, Deadlock).
struct ChatMessage {
  std::string_view kind;  // "chat" or "saytext2"
  int32_t sender = -1;    // player id (Dota) or entity index (SayText2)
  int32_t channel = 0;
  std::string_view text;
  std::string_view message_name;  // SayText2 localisation token
  std::string_view params[4];     // SayText2 parameters
};

// Dota's CDOTAUserMsg_ChatEvent (kills, rune pickups, ...).
struct ChatEvent {
  int32_t type = -1;
  std::string_view type_name;
  uint32_t value = 0;
  uint32_t value2 = 0;
  uint32_t value3 = 0;
  int32_t player_ids[6] = {-1, -1, -1, -1, -1, -1};
};

struct PlayerInfo {
  std::string hero_name;
  std::string player_name;
  bool is_fake_client = false;
  uint64_t steam_id = 0;
  int32_t game_team = 0;
};

// What is known about the replay as a whole, at the end of the parse.
struct ReplayMetadata {
  ReplayHeader header;
  std::string game;          // "dota2", "cs2", "deadlock" or the header's word
  int32_t game_build = 0;    // from the game directory, else the header
  bool game_build_from_header = false;

  // svc_ServerInfo
  float tick_interval = 0;
  int32_t max_classes = 0;
  int32_t max_clients = 0;
  std::string server_map;
  std::string server_game_dir;
  std::string server_host_name;

  // CDemoFileInfo (absent fields stay at -1 / empty)
  bool has_file_info = false;
  float playback_time = -1;
  int32_t playback_ticks = -1;
  int32_t playback_frames = -1;

  // Dota match facts: file info first, else CDOTAGamerulesProxy.
  uint64_t match_id = 0;
  int32_t game_mode = 0;
  int32_t game_winner = 0;  // 2 radiant, 3 dire
  uint32_t league_id = 0;
  uint32_t end_time = 0;
  uint32_t radiant_team_id = 0;
  uint32_t dire_team_id = 0;
  std::string radiant_team_tag;
  std::string dire_team_tag;
  std::string match_source;  // "file_info", "gamerules" or ""
  std::vector<PlayerInfo> players;

  // Ticks (outer frame ticks). -1 when not seen.
  int64_t game_start_tick = -1;  // m_flGameStartTime turned non-zero
  float game_start_time = 0;
  int64_t game_end_tick = -1;    // combat log: game state 6 (post game)
  int64_t first_tick = -1;       // first tick of play (first DEM_Packet)
  int64_t last_tick = -1;        // last outer tick seen

  // Reading
  uint64_t bytes = 0;
  uint64_t bytes_read = 0;     // up to the end of the last whole frame
  bool truncated = false;      // the file ends inside a frame
  std::string truncation_reason;
};

}  // namespace gem

#endif  // GEM_CORE_EVENTS_H_
