// Fuzz targets: each takes any bytes and must neither crash, hang, leak
// nor trip a sanitizer, whatever they are. Built two ways: into libFuzzer
// binaries by tools/fuzz.sh (clang, ASan, UBSan; entry.cc), and into the
// normal test suite, which runs every input that ever crashed one of them
// (tests/fuzz/regressions/TARGET/, fuzz_regression_test.cc).
#ifndef GEM_TESTS_FUZZ_TARGETS_H_
#define GEM_TESTS_FUZZ_TARGETS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/entities/entities.h"
#include "core/parser/parser.h"
#include "core/string_tables/string_table.h"
#include "tests/fuzz/input_reader.h"

namespace gem::fuzz {

// The fixture `file` ($GEM_FIXTURES, else ../shared/fixtures), parsed
// once for the process; null when it is missing or does not parse.
const Parser* ParsedFixture(const std::string& file);

// The outer demo stream: a whole replay (frames, their messages, all the
// way into entities when the bytes get that far).
int DemoStream(const uint8_t* data, size_t size);
// The same through the compressed front end (core/input/replay_input.h): the
// first byte chooses how the rest is given: as it is, or compressed by
// bzip2, gzip or zstd (compressed_target.cc).
int CompressedReplay(const uint8_t* data, size_t size);
// An inner svc_PacketEntities over the schema and class baselines of the
// auto fixture ($GEM_FIXTURES, else ../shared/fixtures; without it the
// target does nothing): the first bytes choose its flags and entry count,
// the rest is the entity data, applied as a full update and then again as
// a delta over what it built.
int PacketEntitiesUpdate(const uint8_t* data, size_t size);
// The entity state PacketEntitiesUpdate starts from: an EntityManager
// over the auto fixture's schema, classes and baselines, no entity yet;
// null without the fixture.
std::unique_ptr<EntityManager> NewAutoFixtureEntities();
// How PacketEntitiesUpdate reads its input: a flags byte (bit 0: pvs
// bits), the entry count (2 bytes), the rest as the entity data.
PacketEntities ReadEntityPacket(InputReader* in);
// String-table updates: the first bytes choose the table's settings and
// entry count, the rest is the bit-packed entries, applied twice (a
// create, then an update over it).
int StringTableEntries(const uint8_t* data, size_t size);
// How StringTableEntries reads its input's head: a mode byte (bit 0 fixed
// size user data, bit 1 the flags, bit 2 varint bit counts), the user
// data's size and bits, the entry count (4 bytes, taken mod 4096).
struct TableInput {
  StringTableSettings settings;
  int32_t entries = 0;
};
TableInput ReadTableInput(InputReader* in);
// Field paths, then a value for each by a decoder the input chooses among
// every rule SelectDecoder gives.
int FieldPathsAndDecoders(const uint8_t* data, size_t size);
// The index's blobs as the extension decodes them: a change chunk, a state
// blob, and a keyframe block with its rows (or the input as one row).
int ChunkAndStateCodecs(const uint8_t* data, size_t size);

// Deadlock's user messages: the first byte chooses the type among the
// ones its match layer reads (core/deadlock/match_messages.h), the rest is
// the payload, read by the field readers and then as a row of its table
// over the entities and string tables the 10524 Deadlock fixture ends with,
// as a post-match record (core/deadlock/post_match.h) and as an
// ActiveModifiers entry's data (core/deadlock/modifiers.h)
// (without the fixture, the readers alone).
int DeadlockUserMessages(const uint8_t* data, size_t size);

// The extension over an untrusted index: a gem index (the writer's own
// schema, a true application_id and user_version) whose rows are made from
// the input — entities, their creation states, change chunks, ticks and
// the facts in meta — queried through gem_state, gem_changes, gem_value
// and gem_sample.
int ExtensionQueries(const uint8_t* data, size_t size);

// A recorded broadcast: fragments (start, full, deltas) from the input,
// or the input as a broadcast saved as one file (the first byte chooses),
// read as a replay and parsed (broadcast_target.cc).
int BroadcastFragments(const uint8_t* data, size_t size);

}  // namespace gem::fuzz

#endif  // GEM_TESTS_FUZZ_TARGETS_H_
