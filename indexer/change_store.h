// ChangeStore: field changes collected during a parse, packed into chunks
// (core/codec/chunk_codec.h) and written in key order at the end, so that
// the changes table is appended in (entity, field_id, start_tick, seq)
// order.
//
// Speed: changes arrive entity by entity, each touching a few of the
// entity's fields. Packing each change straight into its field's chunk
// would touch a different chunk writer (cold in cache) for every change.
// Instead each entity appends its changes to one small buffer, and a full
// buffer is sorted by field and packed field by field: each writer is
// touched once per buffer, not once per change.
//
// Memory: per entity a buffer of at most kBufferedPerEntity changes and
// one open chunk per field that changed since its last chunk was closed.
// Open chunks hold at most about `held_budget` changes in all: a field
// that changes a few times a minute would otherwise keep its chunk open,
// and growing, for most of a long match (peak memory grew with the
// match's length). Past the budget the fullest open chunks are closed
// early (Trim), which costs a few more rows, not more bytes a change.
// Closed chunks go to a ChunkSpill file, their rows' columns with them,
// leaving one word each in memory (memory follows the live entities, not
// the length of the match); they come back an entity at a time in
// WriteAll(). A store without a spill (OpenSpill not called) keeps them in
// memory.
#ifndef GEM_INDEXER_CHANGE_STORE_H_
#define GEM_INDEXER_CHANGE_STORE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/codec/chunk_codec.h"
#include "core/status.h"
#include "core/value.h"
#include "indexer/chunk_spill.h"
#include "indexer/keyframe_builder.h"
#include "indexer/quantizer_registry.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

// A change held until it is packed: the value's bits, and for a string its
// place in a side arena (values' own strings live only as long as the
// parser's callback).
struct alignas(16) HeldChange {
  int64_t tick;
  uint32_t field;
  ValueKind kind;
  uint8_t count;
  uint16_t quantizer;  // a QuantizerRegistry id, or kNone
  union {
    uint64_t u;
    float v[4];
    struct {
      uint32_t offset, size;
    } s;
  };

  // Copies `value`; its string bytes are appended to `arena`.
  void Set(uint32_t field_id, int64_t at_tick, const Value& value, uint16_t q, std::string* arena) {
    tick = at_tick;
    field = field_id;
    kind = value.kind;
    count = value.count;
    quantizer = q;
    if (value.kind == ValueKind::kString) {
      s.offset = static_cast<uint32_t>(arena->size());
      s.size = static_cast<uint32_t>(value.s.size());
      arena->append(value.s);
    } else {
      std::memcpy(v, value.v, sizeof v);
    }
  }
  // As Set, into `out`, written around the caches where the CPU can
  // (non-temporal stores): what the parser's thread copies out for another
  // thread to read later should not push its own working set (the entities'
  // states) out of the cache. The stores are ordered before a hand-over by
  // StreamFence.
  static void StreamTo(HeldChange* out, uint32_t field_id, int64_t at_tick, const Value& value,
                       uint16_t q, std::string* arena) {
#if defined(__SSE2__)
    const uint64_t head = static_cast<uint64_t>(field_id) |
                          static_cast<uint64_t>(static_cast<uint8_t>(value.kind)) << 32 |
                          static_cast<uint64_t>(value.count) << 40 | static_cast<uint64_t>(q) << 48;
    uint64_t body[2];
    if (value.kind == ValueKind::kString) {
      body[0] = static_cast<uint32_t>(arena->size()) |
                static_cast<uint64_t>(static_cast<uint32_t>(value.s.size())) << 32;
      body[1] = 0;
      arena->append(value.s);
    } else {
      std::memcpy(body, value.v, sizeof body);
    }
    auto* p = reinterpret_cast<__m128i*>(out);
    _mm_stream_si128(p, _mm_set_epi64x(static_cast<int64_t>(head), at_tick));
    _mm_stream_si128(p + 1,
                     _mm_set_epi64x(static_cast<int64_t>(body[1]), static_cast<int64_t>(body[0])));
#else
    out->Set(field_id, at_tick, value, q, arena);
#endif
  }
  // Orders the StreamTo stores before what follows (a hand-over to another
  // thread).
  static void StreamFence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
  }
  // The value, strings pointing into `arena`.
  Value Get(std::string_view arena) const;
};
static_assert(sizeof(HeldChange) == 32, "a held change is copied millions of times");
// StreamTo's layout: tick, then field | kind << 32 | count << 40 |
// quantizer << 48 (little-endian), then the value's 16 bytes.
static_assert(offsetof(HeldChange, field) == 8 && offsetof(HeldChange, kind) == 12 &&
                  offsetof(HeldChange, count) == 13 && offsetof(HeldChange, quantizer) == 14 &&
                  offsetof(HeldChange, u) == 16,
              "StreamTo writes this layout");

class ChangeStore {
 public:
  static constexpr size_t kBufferedPerEntity = 512;
  // A live entity's spill words leave memory this many at a time.
  static constexpr size_t kWordsPerRun = 64;
  // WriteAll: spilled chunk bytes read back ahead of the rows written.
  static constexpr uint64_t kSealAhead = 16u << 20;

  // Changes open chunks may hold before Trim closes the fullest (about
  // 10 MB on a Deadlock match; a 12-minute one stays under it).
  static constexpr uint64_t kHeldBudget = uint64_t{1} << 20;
  // A chunk closes when its blob would pass about this many bytes.
  static constexpr size_t kMaxChunkBytes = 940;

  // `quantizers` (may be null: none) names the quantizers of held changes;
  // it must outlive the store.
  // `seal_ahead`: WriteAll's read-ahead (kSealAhead; tests set less).
  explicit ChangeStore(uint32_t max_per_chunk, const QuantizerRegistry* quantizers = nullptr,
                       uint64_t held_budget = kHeldBudget, uint64_t seal_ahead = kSealAhead)
      : max_per_chunk_(max_per_chunk),
        quantizers_(quantizers),
        held_budget_(held_budget),
        seal_ahead_(seal_ahead) {}

  // Closed chunks go to a temporary file in `directory`.
  Status OpenSpill(const std::string& directory) { return spill_.Open(directory); }
  // The first failure to keep a chunk (the spill file's write error).
  const Status& status() const { return spill_.status(); }

  // Records changes of `entity`, a lifetime id (small, dense), in order;
  // string bytes are read from `arena` (`has_strings`: some change is a
  // string). Ticks of one (entity, field) must not decrease. A change's
  // quantizer (a registry id) tells how the field's floats were quantized.
  // Inline: called once per entity update (millions of times, ~2 changes
  // each); a string, a first change or a full buffer takes AddSlow.
  void Add(uint64_t entity, std::span<const HeldChange> changes, bool has_strings,
           std::string_view arena) {
    if (!has_strings && entity < open_.size() && open_[entity] != nullptr) {
      std::vector<HeldChange>& buffer = open_[entity]->buffer;
      if (buffer.size() + changes.size() < kBufferedPerEntity && buffer.capacity() != 0) {
        for (const HeldChange& c : changes) buffer.push_back(c);
        changes_ += changes.size();
        return;
      }
    }
    AddSlow(entity, changes, has_strings, arena);
  }
  // The entity is gone: packs its buffer, closes its chunks, frees them.
  void CloseEntity(uint64_t entity);
  // Closes every chunk and writes all rows in key order with `insert`,
  // whose columns are (entity, field_id, start_tick, seq, end_tick, count,
  // data), many rows to a statement run. A helper thread closes and sorts
  // each entity's chunks while this one inserts the entities before it.
  // Hooks (either may be empty): `sealed` runs on the helper thread once
  // an entity's chunks are in key order, every entity in turn, with views
  // valid during the call; `written` on the calling thread once the
  // entity's rows are queued for `insert`, after its `sealed`.
  struct WriteHooks {
    std::function<Status(uint64_t entity, std::span<const ChunkView> chunks)> sealed;
    std::function<Status(uint64_t entity)> written;
  };
  Status WriteAll(Insert* insert, const WriteHooks& hooks = {});
  // Entities [0, entities()) are the ones WriteAll visits; later ones
  // have no changes.
  uint64_t entities() const { return open_.size(); }

  // Seconds of CPU WriteAll's helper thread used.
  double seal_cpu_seconds() const { return seal_cpu_seconds_; }

  uint64_t changes() const { return changes_; }
  // Changes in open chunks now (buffered ones not counted), the most
  // there ever were, and how many times Trim closed chunks early.
  uint64_t held() const { return held_; }
  uint64_t peak_held() const { return peak_held_; }
  // After WriteAll(): the most chunk bytes sealed and not yet given back
  // at once (read-ahead, and entities whose rows SQLite has not taken).
  uint64_t peak_sealed_bytes() const { return peak_sealed_bytes_; }
  uint64_t trims() const { return trims_; }
  // Heap bytes the open chunks' writers hold now (walks every entity).
  uint64_t writer_heap_bytes() const;
  uint64_t chunks() const { return chunks_; }
  uint64_t blob_bytes() const { return blob_bytes_; }
  // After WriteAll(): the changes table's primary-key statistics as
  // ANALYZE computes them for sqlite_stat1 ("rows a b c d": rows, then the
  // average rows per distinct (entity), (entity, field_id), (entity,
  // field_id, start_tick) and whole key, rounded up); "" when no rows.
  // Known here for free, where ANALYZE would read the whole table.
  const std::string& key_stat() const { return key_stat_; }

 private:
  struct Open {
    ChunkWriter writer;
    uint32_t next_seq = 0;
  };
  // A closed chunk's row, but for its entity.
  struct Done {
    uint32_t field;
    uint32_t seq;
    int64_t start_tick;
    int64_t end_tick;
    uint32_t count;
    uint32_t size;
    const char* data;
  };
  // A spilled chunk is its Done (less data) then its bytes; in memory only
  // where it starts and its length, in one word (kSpillLengthBits for the
  // length): a long match holds few bytes per chunk until Seal reads the
  // entity's chunks back.
  struct SpillHeader {
    uint32_t field;
    uint32_t seq;
    uint32_t count;
    uint32_t size;
    int64_t start_tick;
    int64_t end_tick;
  };
  static constexpr unsigned kSpillLengthBits = 24;
  // One entity's chunks: the open ones (only fields that changed get a
  // writer; slot maps a field id to its writer, index + 1, 0 = none yet)
  // and the closed ones.
  struct EntityChunks {
    std::vector<HeldChange> buffer;
    std::string strings;  // the buffer's string bytes
    std::vector<uint32_t> slot;
    std::vector<Open> open;
    std::vector<uint32_t> field_of;  // writer index -> field id
    std::vector<Done> done;         // closed chunks in memory (all, after Seal)
    std::vector<uint64_t> spilled;  // closed chunks in the spill: at << 24 | length
    std::string bytes;              // Seal: its chunks' bytes, closed or read back
  };
  // The entity's newest run of spill words in the spill (count 0: none).
  // A run is a RunHeader, naming the run before it, then `count` words:
  // an entity's words leave memory a run at a time as it closes chunks,
  // so that a hero that lives the whole match holds no more of them than
  // a trooper (a 72-minute Deadlock match kept 1.6 MB of them).
  struct WordsRun {
    uint64_t at = 0;
    uint32_t count = 0;
  };
  struct RunHeader {
    uint64_t prev_at;
    uint32_t prev_count;
    uint32_t unused;
  };
  static_assert(sizeof(RunHeader) == 16, "ReadBack reads a run as words");

  void AddSlow(uint64_t entity, std::span<const HeldChange> changes, bool has_strings,
               std::string_view arena);
  void Pack(uint64_t entity, EntityChunks* chunks);
  // Closes the fullest open chunks of live entities until about half the
  // held changes are gone, and frees those writers' memory.
  void Trim();
  // Closes the entity's chunks and frees what it held to gather them.
  void CloseChunks(EntityChunks* chunks, uint64_t entity);
  // Frees the writers and buffer that gather an entity's changes.
  static void FreeGathering(EntityChunks* chunks);
  // Ends `open`'s chunk: its bytes appended to *out, its row returned
  // (data null: the caller places it).
  Done FinishChunk(uint32_t field, Open* open, std::string* out);
  // Closes the entity's open chunks into its `bytes`, reads back those
  // it spilled, and puts them all in key order, their bytes in memory.
  Status Seal(uint64_t entity);
  void Close(uint64_t entity, uint32_t field, Open* open);
  const char* Store(const std::string& blob);
  // Reads an entity's closed chunks back from the spill: the words of
  // the runs from `newest` back, then those still in memory.
  Status ReadBack(EntityChunks* chunks, WordsRun* newest);
  // Moves the entity's spill words in memory to a run in the spill.
  void SpillWords(uint64_t entity, EntityChunks* chunks);

  uint32_t max_per_chunk_;
  const QuantizerRegistry* quantizers_;
  // By entity: its chunks while it lives (null before its first change,
  // and once it is gone with its chunks all in the spill), and where its
  // newest run of spill words is. A long match makes tens of thousands of
  // entities; each gone one costs 24 bytes here, not a whole EntityChunks
  // and 8-16 bytes a chunk.
  std::vector<std::unique_ptr<EntityChunks>> open_;
  std::vector<WordsRun> runs_;
  // The entity's chunks (made when it has none).
  EntityChunks& ChunksOf(uint64_t entity);
  // Pack's scratch: each buffered change's writer, where each writer's
  // changes start in `order_`, and the buffer's indices grouped by writer.
  std::vector<uint32_t> writer_of_, starts_, order_;
  // Closed chunks' bytes, in blocks that never move.
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<std::unique_ptr<char[]>> big_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::string scratch_;
  std::vector<size_t> tail_offsets_;  // Seal's: where each chunk it closed lies in `bytes`
  uint64_t changes_ = 0;
  uint64_t held_budget_;
  uint64_t held_ = 0;
  uint64_t peak_held_ = 0;
  uint64_t seal_ahead_;
  uint64_t peak_sealed_bytes_ = 0;  // the sealing thread's, read after it ends
  uint64_t trims_ = 0;
  std::vector<uint64_t> held_by_fullness_;  // Trim's scratch
  uint64_t chunks_ = 0;
  uint64_t blob_bytes_ = 0;
  std::string key_stat_;
  double seal_cpu_seconds_ = 0;
  ChunkSpill spill_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_CHANGE_STORE_H_
