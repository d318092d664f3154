// Dota's part of the file info (CDemoFileInfo.game_info.dota, a
// CGameInfo.CDotaGameInfo): the match id, mode, winner and league, the
// players (file_info_players) and the draft the server recorded. Only
// complete replays carry it, at their end.
#ifndef GEM_CORE_DOTA_FILE_INFO_H_
#define GEM_CORE_DOTA_FILE_INFO_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/events/events.h"
#include "core/match/match_context.h"
#include "core/util/status.h"
#include "core/events/table_spec.h"

namespace gem::dota {

// One CHeroSelectEvent of the file info, in its order.
struct FileInfoPick {
  bool is_pick = false;
  int64_t team = 0;
  int64_t hero_id = 0;
};

TableSpec FileInfoPlayersTable();

// Reads `data` (a serialized CGameInfo); fills `meta` and writes the
// players' rows; `picks` gets the draft it lists. Corrupt when it does not
// parse.
Status ReadGameInfo(match::MatchContext& ctx, const uint8_t* data, size_t size,
                    ReplayMetadata* meta, std::vector<FileInfoPick>* picks);

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_FILE_INFO_H_
