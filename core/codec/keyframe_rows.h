// A keyframe block (keyframe_block.h) whose rows (keyframe_codec.h) are
// decoded once, on first use, into plain arrays: an entity's state at any
// tick of the row's interval is then a merge of two ascending lists and a
// look at a few tick offsets, with no varint read, so that a reader of
// every entity's state at many ticks of one interval (a viewer scrubbing
// or playing, gem_sample, a query over ticks) decodes each row once. Born
// rows are merged with the entity's creation state as they are decoded:
// every decoded row holds its whole state as of the keyframe.
//
// Kept small, since a reader keeps many blocks: a state value takes 8
// bytes (its field id, and where its bytes are: the block's body, or for a
// born row an arena of the block's own), a later field 16, a logged
// change 4 (its tick; the values of a logged field are read again from the
// body up to the one asked for, at most a few), a run 24.
#ifndef GEM_CORE_CODEC_KEYFRAME_ROWS_H_
#define GEM_CORE_CODEC_KEYFRAME_ROWS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/codec/keyframe_block.h"
#include "core/fields/value.h"

namespace gem {

class KeyframeRows {
 public:
  // A state value: field id, and its bytes' place (At).
  struct Entry {
    uint32_t field;
    uint32_t at;
  };
  // A field that changes in the interval: `count` logged changes (ticks
  // [begin, begin + count) of the tick list, ascending, their bytes from
  // `at` in the body, values of `kind` or none); or `count` runs (runs
  // [begin, begin + count), ascending).
  struct Later {
    uint32_t field;
    uint32_t count_kind;  // count << 9 | runs << 8 | kind
    uint32_t begin;
    uint32_t at;
    uint32_t count() const { return count_kind >> 9; }
    bool runs() const { return (count_kind & 0x100) != 0; }
    uint8_t kind() const { return static_cast<uint8_t>(count_kind & 0xFF); }
  };
  // A run of a field's changes: its first tick past the keyframe tick, and
  // where its bytes are (keyframe_codec.h's RunRef).
  struct Run {
    uint32_t tick;
    uint32_t offset;
    uint32_t length;
    int64_t page;
  };
  struct Span {
    uint32_t begin = 0, end = 0;
  };
  // A decoded row: its state as of the keyframe tick (ascending field ids,
  // no kNone) and its later fields (ascending field ids).
  struct Row {
    Span state, later;
  };

  // Opens a block as KeyframeBlock::Open does (false on damage); its rows
  // decode on first use.
  bool Open(std::string_view blob, int64_t first_entity, KeyframeDecompressor* decompressor);
  int64_t last_entity() const { return block_.last_entity(); }

  // The position of `entity`'s row; false when the block has none.
  bool IndexOf(int64_t entity, size_t* i) const { return block_.IndexOf(entity, i); }
  bool decoded(size_t i) const { return rows_[i].decoded; }
  // Whether decoding row i needs the entity's creation state (a born
  // row).
  bool NeedsCreationState(size_t i) const;
  // Decodes row i, of keyframe tick `k`. `creation` is the entity's
  // creation state (a state blob; empty when none is recorded), read only
  // when NeedsCreationState. False on damage (a malformed row or creation
  // state, a delta row, field ids that do not ascend, ticks before k or
  // past k + 2^32, runs that do not ascend), with nothing kept. *values
  // counts the values decoded.
  bool Decode(size_t i, int64_t k, std::string_view creation, uint64_t* values);
  // Row i, once decoded.
  const Row& row(size_t i) const { return rows_[i].row; }

  const Entry& state(uint32_t i) const { return state_[i]; }
  const Later& later(uint32_t i) const { return later_[i]; }
  // A state value, into *v; a string points into this block: its body, or
  // its arena (in_arena), which moves as rows that merge decode.
  void Get(const Entry& e, Value* v) const;
  bool in_arena(const Entry& e) const { return (e.at & kArenaBit) != 0; }
  // The latest of logged field `l`'s changes at or before the keyframe
  // tick + `offset` (a string pointing into this block): false when none
  // is, else *v (kNone when the change dropped the field).
  bool LatestLogged(const Later& l, uint64_t offset, Value* v) const;
  // Each of logged field `l`'s changes in order: visit(tick past the
  // keyframe tick, value), a string pointing into this block.
  template <typename Visit>
  void ForEachLogged(const Later& l, Visit&& visit) const {
    size_t pos = l.at;
    Value v;
    for (uint32_t i = 0; i < l.count(); ++i) {
      LoggedValue(l, &pos, &v);
      visit(ticks_[l.begin + i], v);
    }
  }
  // The runs of a field with runs: the last one starting at or before the
  // keyframe tick + `offset` (-1: none does), and run i.
  int64_t LatestRun(const Later& l, uint64_t offset) const;
  const Run& run(uint32_t i) const { return runs_[i]; }

  // The memory the block holds.
  size_t bytes() const;

 private:
  // The next logged value of a field of `l`'s kind at *pos (advanced).
  void LoggedValue(const Later& l, size_t* pos, Value* v) const;
  // Entry::at: the kind in bits 28-30, bit 31 set for the arena, the
  // offset below.
  static constexpr uint32_t kArenaBit = 1u << 31;
  static constexpr uint32_t kOffsetLimit = 1u << 28;
  struct Slot {
    bool decoded = false;
    Row row;
  };
  // The state part of a row (of `flags`, at `base` in the body), or for a
  // born row the creation state.
  bool AddState(uint8_t flags, std::string_view own, size_t base, std::string_view creation,
                uint64_t* values);

  KeyframeBlock block_;
  std::vector<Slot> rows_;
  std::vector<Entry> state_;
  std::vector<Later> later_;
  std::vector<uint32_t> ticks_;  // logged changes' ticks past the keyframe
  std::vector<Run> runs_;
  std::string arena_;  // values of born rows' states
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_KEYFRAME_ROWS_H_
