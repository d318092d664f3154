// The identity of a gem index file, shared by the writer (gem-index) and
// the reader (libgem): PRAGMA application_id and PRAGMA user_version.
// The version changes whenever the tables or the codec's blob layout do;
// a reader refuses any version but its own.
#ifndef GEM_CORE_CODEC_INDEX_FORMAT_H_
#define GEM_CORE_CODEC_INDEX_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace gem {

constexpr int32_t kIndexApplicationId = 0x47454D31;  // "GEM1"
// 2: chunk format 2 (run-length ticks, per-chunk float modes).
// 3: the match layer (match_info, players, timeline, kills, wards; the
//    file info's players move to file_info_players); precise QAngles
//    decode from -180 degrees.
// 4: each game's own tables, as its module declares them (Dota: the combat
//    log, chat events, file info players, and the analyst tables purchases,
//    inventory, abilities, objectives, runes, buybacks, draft, teamfights,
//    teamfight_players; views damage, healing, hero_hits); Dota's timeline
//    gains earned_gold, stuns, camps_stacked, creeps_stacked and
//    teamfight_participation; Deadlock's HeroID_t reads unsigned.
// 5: field names unique within a class (send nodes where two fields of a
//    serializer share a var_name); field_defs and fields gain short_name.
// 6: keyframes (every entity's state at regular ticks; keyframe_codec.h),
//    meta keyframe_interval and keyframe_max_logged.
// 7: keyframe rows (format 2) compressed by zstd instead of deflate.
// 8: keyframe rows stored in blocks of consecutive entities, compressed
//    together (keyframe_block.h); keyframes gains first_entity and
//    last_entity and loses entity.
// 9: one write path, written as the parse goes. An interval's row of an
//    entity (keyframes, row format 3) holds its state at the keyframe and
//    every change of its fields that change at most keyframe_max_logged
//    times in the interval; of the others, where their runs are. changes
//    holds those runs only, packed into rows of about a page (id, data)
//    in the order they close; tail holds a live index's open interval.
constexpr int32_t kIndexSchemaVersion = 9;

// The most bytes of runs one changes row holds: with its record header
// (4 bytes) the row's payload is at most 4,061 bytes, the most a 4 KiB
// page of a table b-tree keeps in the page itself, so that each row is
// one page, read without an overflow chain. A single run longer than this
// (a long string's changes) has a row of its own, whatever its length.
constexpr size_t kRunPageBytes = 4056;

}  // namespace gem

#endif  // GEM_CORE_CODEC_INDEX_FORMAT_H_
