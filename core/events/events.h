// The non-entity events a replay carries, as the parser reports them, and
// what is known of the replay as a whole. Game-agnostic: what a game's own
// messages mean is its module's (core/<game>/), which fills the match facts
// of ReplayMetadata and declares its own tables (core/events/table_spec.h).
#ifndef GEM_CORE_EVENTS_EVENTS_H_
#define GEM_CORE_EVENTS_EVENTS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/fields/value.h"

namespace gem {

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

// A text chat line: the engine's SayText2, or a game's own chat message
// (Dota's CDOTAUserMsg_ChatMessage), which its module decodes.
struct ChatMessage {
  std::string_view kind;  // "chat" or "saytext2"
  int32_t sender = -1;    // a game's player id, or an entity index (SayText2)
  int32_t channel = 0;
  std::string_view text;
  std::string_view message_name;  // SayText2 localisation token
  std::string_view params[4];     // SayText2 parameters
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
  // Who recorded it: a server (SourceTV, GOTV: is_hltv), or a player's
  // client, whose slot ServerInfo gives (player_slot) and whose userinfo
  // entry at that slot names it (CMsgPlayerInfo name and xuid).
  bool client_recording = false;
  int32_t recorder_slot = -1;
  std::string recorder_name;
  uint64_t recorder_steam_id = 0;

  // Where the game events' names come from: "replay" (its own descriptor
  // list), "known" (no list came before the first event: the game's list
  // of the closest known build, event_list_protocol / _build), or "none"
  // (no list at all: an event without a name of its own is skipped).
  std::string event_list = "none";
  int32_t event_list_protocol = 0;
  int32_t event_list_build = 0;

  // CDemoFileInfo (absent fields stay at -1 / empty)
  bool has_file_info = false;
  float playback_time = -1;
  int32_t playback_ticks = -1;
  int32_t playback_frames = -1;

  // Match facts, from the game's module (its part of the file info
  // first, else its game rules entity); 0 / "" when unknown.
  uint64_t match_id = 0;
  int32_t game_mode = 0;
  int32_t game_winner = 0;  // a team number
  uint32_t league_id = 0;
  std::string match_source;  // where they came from: "file_info", "gamerules", ...

  // Ticks (outer frame ticks). -1 when not seen.
  int64_t game_start_tick = -1;  // the game module saw the game start
  float game_start_time = 0;     // the game's own time of its start
  int64_t game_end_tick = -1;    // the game module saw the game end
  int64_t first_tick = -1;       // first tick of play (first DEM_Packet)
  int64_t last_tick = -1;        // last outer tick seen

  // Reading
  uint64_t bytes = 0;
  uint64_t bytes_read = 0;     // up to the end of the last whole frame
  bool truncated = false;      // the file ends inside a frame
  std::string truncation_reason;
};

}  // namespace gem

#endif  // GEM_CORE_EVENTS_EVENTS_H_
