// gem-dump verify: a self-check of the decoder that needs no reference
// data, so it works on any replay of any game.
//
// A replay restates everything now and then: each full packet (every
// minute or so) holds every string table and every entity in full. The
// parse builds its state from the first one and then from deltas only; the
// check decodes each later full packet from scratch (each entity its class
// baseline with the packet's values on top) and compares it, value by
// value, with the state the deltas built up to it. A decoding error in the
// deltas (a wrong field path, a value decoded from the wrong bits, an
// array that kept what it should have dropped, a string-table update
// misread) leaves a value that the next full packet contradicts.
//
// What it cannot see: an error that decodes the full packet exactly as
// wrongly as the deltas (a value decoder wrong for every value of its
// type); the golden comparisons cover those.
#ifndef GEM_TOOLS_DUMP_VERIFY_H_
#define GEM_TOOLS_DUMP_VERIFY_H_

#include <cstdint>
#include <cstdio>
#include <functional>

#include "core/entities/entities.h"
#include "core/input/replay_source.h"
#include "core/util/status.h"

namespace gem::dump {

struct VerifyCounts {
  uint64_t full_packets = 0;  // checked: every full packet but the first
  uint64_t entities = 0;      // entities compared
  uint64_t fields = 0;        // field values compared
  uint64_t tables = 0;        // string tables compared
  uint64_t entries = 0;       // string-table entries compared
  uint64_t mismatches = 0;
  uint64_t rebaselines = 0;   // full updates of another server tick: not compared
  uint64_t decode_faults = 0;  // packets that did not decode to their end (a line each)
};

// Parses the replay and checks each full packet after the first against
// the state the deltas built up to it; each mismatch is a line on `out`
// (tick, entity or table, field or entry, both values). `before_check`
// (may be null) is called with the live entities just before each check:
// a test's way to leave a wrong value where a decoding error would.
// A replay that does not parse is the failure returned.
// `consumed` (may be null) is told how far the replay has been read, as
// ParserOptions::consumed.
Status Verify(const uint8_t* data, size_t size, std::FILE* out, VerifyCounts* counts,
              const std::function<void(EntityManager&)>& before_check = nullptr,
              const std::function<void(uint64_t)>& consumed = nullptr);
// The same over a source (a compressed or piped replay).
Status Verify(ReplaySource* source, std::FILE* out, VerifyCounts* counts,
              const std::function<void(EntityManager&)>& before_check = nullptr,
              const std::function<void(uint64_t)>& consumed = nullptr);

}  // namespace gem::dump

#endif  // GEM_TOOLS_DUMP_VERIFY_H_
