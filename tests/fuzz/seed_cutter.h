// Seed corpora for the fuzz targets (targets.h), cut from real replays and
// from their indexes, so that fuzzing starts from inputs that reach deep
// into each decoder rather than from nothing. Each seed is laid out the way
// its target reads its input (input_reader.h):
//   demo_stream             the replay's 16-byte header and whole frames: the
//                           signon cut at frame boundaries, and single
//                           frames of every command after the header
//   packet_entities_update  flags (bit 0: pvs bits), entry count (2 bytes,
//                           little-endian), a real svc_PacketEntities' data;
//                           only from the replay whose schema the target
//                           uses (the auto fixture)
//   string_table_entries    the table's settings, entry count (4 bytes), a
//                           real svc_CreateStringTable's or
//                           svc_UpdateStringTable's entries (decompressed)
//   field_paths_and_decoders a decoder choice, then a class baseline: a
//                           field-path stream from bit 0, values between
//   chunk_and_state_codecs  a change chunk or a creation state of an index
//   extension_queries       the target's own layout, filled with an index's
//                           entity, its creation state and change chunks
// Seeds are capped in number per replay and in size, spread over the
// replay, so that a corpus stays quick to load.
#ifndef GEM_TESTS_FUZZ_SEED_CUTTER_H_
#define GEM_TESTS_FUZZ_SEED_CUTTER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/util/status.h"

namespace gem::fuzz {

struct Seed {
  std::string target;  // a fuzz target's name (tools/fuzz.sh --list)
  std::string name;    // unique within the target: "<stem>.<what>.<n>"
  std::string bytes;
};

// The largest seed cut, and how many of one kind one replay gives.
inline constexpr size_t kMaxSeedBytes = 64 * 1024;
inline constexpr size_t kMaxSeedsPerKind = 24;

// Seeds for the replay-reading targets. `stem` names them;
// `with_entity_packets` adds packet_entities_update seeds (only for the
// replay whose schema that target loads). A replay gem cannot parse gives
// the seeds cut before the failure and its Status.
Status CutReplaySeeds(const uint8_t* replay, size_t size, const std::string& stem,
                      bool with_entity_packets, std::vector<Seed>* out);

// Seeds for the index-reading targets from a gem index at `index_path`.
Status CutIndexSeeds(const std::string& index_path, const std::string& stem,
                     std::vector<Seed>* out);

}  // namespace gem::fuzz

#endif  // GEM_TESTS_FUZZ_SEED_CUTTER_H_
