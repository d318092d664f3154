// IndexReader: reads one gem index (one schema of a connection: "main" or an
// attached name) for the extension's functions, with what every query needs
// cached: the entities' lifetimes and classes, and each class's fields.
//
// Reads go through the connection the extension is loaded into. An entity's
// values at a tick are its row of the interval holding the tick (keyframes:
// core/codec/keyframe_codec.h), found in its block and decoded once (the
// reader keeps the blocks it read), and, for a field that changes often,
// one run of the changes table; a live index's open interval is its tail
// (index_schema.h).
//
// The index is untrusted input (people share them): every id, tick and
// blob read is checked before use (index_columns.h), and a row that is not
// what gem-index writes gives an error naming its table and key ("gem:
// index 'main' (FILE) is damaged: table changes, entity 7 field_id 3
// start_tick 120: data does not decode"), never a crash, a hang or an
// allocation beyond the rows read.
//
// Errors are returned as text (for sqlite3_result_error / zErrMsg); no
// exception leaves this class.
#ifndef GEM_SQLEXT_INDEX_READER_H_
#define GEM_SQLEXT_INDEX_READER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/codec/keyframe_block.h"
#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/keyframe_rows.h"
#include "core/fields/value.h"
#include "sqlext/sqlite_api.h"

namespace gem::sqlext {

// Counters that show what a query touched (gem_debug() reports them).
struct ReadCounters {
  uint64_t seeks = 0;          // rows looked up (keyframe blocks, pages, tail rows)
  uint64_t chunks_read = 0;    // runs decoded
  uint64_t pages_read = 0;     // changes rows read
  uint64_t states_read = 0;    // creation-state blobs decoded
  uint64_t state_walks = 0;    // creation states read through value by value
  uint64_t values_decoded = 0;
  uint64_t keyframe_blocks_read = 0;  // keyframe blocks read and decompressed
  uint64_t keyframes_read = 0;  // keyframe rows read (decoded or kept)
  uint64_t keyframe_rows_decoded = 0;  // keyframe rows decoded
};

struct EntityInfo {
  int64_t entity = 0;  // lifetime id
  int32_t ent_index = 0;
  int32_t serial = 0;
  int32_t class_id = -1;
  int64_t created_tick = 0;
  int64_t deleted_tick = INT64_MAX;  // alive to the end
  bool AliveAt(int64_t tick) const { return created_tick <= tick && tick < deleted_tick; }
};

struct FieldInfo {
  uint32_t field_id = 0;
  std::string name;
  std::string path;
  std::string type;
};

struct ClassInfoRow {
  int32_t class_id = -1;
  std::string name;
  bool fields_loaded = false;
  std::vector<FieldInfo> fields;  // by field id
  // The class's name and its fields' names, paths and types as rows
  // return them (ResultPacked): packed in one buffer, each ending in a NUL
  // there, so that the rows of one entity read them one after another;
  // where each starts, and the length to hand sqlite3_result_text
  // (ResultLength). Set when the fields load.
  struct PackedText {
    uint32_t at;
    int32_t result_length;
  };
  struct PackedField {
    PackedText name, path, type;
  };
  PackedText packed_name{0, -1};
  std::vector<PackedField> packed_fields;  // by field id
  std::string text_bytes;
  std::unordered_map<std::string, uint32_t> by_name;
  // Short names (schema.h) that are no field's name, with the fields that
  // have them: a name older indexes gave to several fields at once.
  std::unordered_map<std::string, std::vector<uint32_t>> ambiguous;
};

// One value found for a field: where it came from does not matter to the
// caller, but its bytes must outlive the Value; `storage` owns them.
struct FoundValue {
  bool found = false;
  int64_t tick = 0;
  Value value;
};

struct TailEntity;  // tail.h

class IndexReader {
 public:
  IndexReader(sqlite3* db, std::string schema) : db_(db), schema_(std::move(schema)) {}
  ~IndexReader();

  // Checks the schema holds a gem index this code reads and loads the
  // entity list and class names. Idempotent; false with *error set.
  bool Open(std::string* error);
  // Whether the schema still names the file this reader opened, and, for
  // a live index, it has not changed since (a commit, or the finished
  // index in its place: then the reader is opened anew).
  bool StillValid() const;
  // A live index (meta live = 1: gem-index is still writing it; its
  // last_tick is its last commit's tick).
  bool live() const { return live_; }
  // False with *error set when `tick` is past a live index's last commit:
  // the state there is not known yet, and no answer is a guess at it.
  bool CheckTick(int64_t tick, std::string* error) const;

  const std::string& schema() const { return schema_; }
  const std::vector<EntityInfo>& entities() const { return entities_; }  // by id order
  const EntityInfo* Entity(int64_t id) const;
  ClassInfoRow* Class(int32_t class_id);
  // Loads a class's fields on first use.
  bool LoadFields(ClassInfoRow* c, std::string* error);

  // The value of field `field_id` of `e` as of `tick` (e must be alive).
  bool ValueAt(const EntityInfo& e, uint32_t field_id, int64_t tick, FoundValue* out,
               std::string* storage, std::string* error);

  // Every field value of `e` as of `tick`: `emit(field_id, value)` in
  // ascending field id; values dropped by an array shrink are skipped.
  // `only` (ascending field ids, may be null) restricts the fields
  // emitted: fewer than kWalkFields are read one by one, more from a walk
  // of the entity's row.
  bool StateAt(const EntityInfo& e, int64_t tick, const std::vector<uint32_t>* only,
               const std::function<void(uint32_t, const Value&)>& emit, std::string* error);
  // Whether StateAt with `only` walks the entity's row (KeyframeWalk can).
  bool WalksKeyframes(const std::vector<uint32_t>* only) const {
    return only == nullptr || only->size() >= kWalkFields;
  }

 private:
  struct KeptBlock;  // (below)

 public:
  // StateAt from the entity's row, one field at a time, for a cursor that
  // returns each field as it reaches it, with nothing gathered first
  // (keyframe_state.cc): the same fields, values and order. Between calls
  // the caller may run other queries on this reader: the walk holds the
  // block it reads (which they may let go of) and reaches the block's
  // arrays by position (which their decoding may move).
  class KeyframeWalk {
   public:
    enum class Step { kField, kEnd, kError };
    // Starts at `e`'s state as of `tick`; `only` as StateAt's, kept by
    // pointer until the walk ends. False with *error set.
    bool Start(IndexReader* reader, const EntityInfo& e, int64_t tick,
               const std::vector<uint32_t>* only, std::string* error);
    // The next field and its value (a string valid until the next call);
    // kEnd after the last; kError with *error set.
    Step Next(uint32_t* field, Value* value, std::string* error);
    // Lets go of the block.
    void Clear() {
      block_.reset();
      tail_.reset();
    }

   private:
    // Whether `only_` (not null) names the field.
    bool Wanted(uint32_t field);
    // State value `at` of the row into *value.
    void GetState(const KeyframeRows& rows, uint32_t at, Value* value);
    Step NextInTail(uint32_t* field, Value* value);

    IndexReader* reader_ = nullptr;
    const EntityInfo* entity_ = nullptr;
    int64_t tick_ = 0, k_ = 0;
    uint64_t offset_ = 0;  // tick - k_
    const std::vector<uint32_t>* only_ = nullptr;
    size_t wanted_at_ = 0;
    std::shared_ptr<const KeptBlock> block_;
    const KeyframeRows::Row* row_ = nullptr;
    uint32_t state_at_ = 0, later_at_ = 0;  // the merge's places
    // A tick of a live index's open interval: the state gathered from the
    // tail, walked in order.
    std::shared_ptr<const TailEntity> tail_;
    std::vector<std::pair<uint32_t, Value>> tail_state_;
    size_t tail_at_ = 0;
    std::string string_;  // the last string returned, when not the block's
  };

  // Every change of field `field_id` of `e` with lo <= tick <= hi, in tick
  // order; the creation state counts as a change at the creation tick.
  bool Changes(const EntityInfo& e, uint32_t field_id, int64_t lo, int64_t hi,
               const std::function<void(int64_t, const Value&)>& emit, std::string* error);

  // The value of field `field_id` of `e` as of each tick first, first +
  // step, ... <= last (all within e's life), by one pass over the field's
  // changes: emit(tick, value) for each tick at which it has a value.
  // `start`, when given, is the field's value as of `first` (found or not:
  // a caller that read the entity's whole state at `first`), saving the
  // look-up for it.
  bool Sample(const EntityInfo& e, uint32_t field_id, int64_t first, int64_t last,
              int64_t step, const std::function<void(int64_t, const Value&)>& emit,
              std::string* error, const FoundValue* start = nullptr);

  // From meta: the last tick of the replay, and the game's position rule
  // (world = cell * cell_width - world_offset + offset; 0 when unknown).
  int64_t last_tick() const { return last_tick_; }
  // Ticks between keyframes (0: one interval for the whole replay).
  int64_t keyframe_interval() const { return keyframe_interval_; }
  double cell_width() const { return cell_width_; }
  double world_offset() const { return world_offset_; }

  // Field ids of `e` that have a value at some tick of lo..hi, or more
  // (ascending, distinct): those of its state at lo (its creation state,
  // if later) and those that change up to hi.
  bool FieldsWithValues(const EntityInfo& e, int64_t lo, int64_t hi, std::vector<uint32_t>* out,
                        std::string* error);

  ReadCounters& counters() { return counters_; }

  // How many bytes of keyframe blocks, decompressed and decoded, the reader
  // keeps (KeptBlock below); a block being read is kept whatever its size.
  static constexpr size_t kDefaultKeyframeCacheBytes = 64u << 20;
  // Sets the limit, letting blocks go at once down to it.
  void SetKeyframeCacheLimit(size_t bytes);
  // The bytes of keyframe blocks kept now.
  size_t keyframe_cache_bytes() const { return kf_blocks_bytes_; }

 private:
  bool Prepare(sqlite3_stmt** st, const std::string& sql, std::string* error);
  std::string Table(const char* name) const;
  // The schema, and its file when it has one: "'S' (FILE)".
  std::string Named() const;
  // "gem: index 'S' (FILE) is damaged: WHERE: WHAT".
  std::string Damaged(const std::string& where, const std::string& what) const;
  // SQLite could not read (I/O, interrupted, out of memory, a page it
  // finds corrupt): "gem: cannot read index 'S' (FILE): WHERE: SQLITE'S".
  std::string ReadFailed(const std::string& where) const;
  template <typename Row>
  bool EachRow(sqlite3_stmt* st, const char* table, Row&& row, std::string* error);
  // Open's steps (index_open.cc).
  bool CheckFormat(std::string* error);
  bool LoadEntities(std::string* error);
  bool LoadMeta(std::string* error);
  bool LoadClasses(std::string* error);

  // The interval whose row holds the state at `tick` (slot, keyframe
  // tick), and the one whose row holds a change at `tick`.
  void StateInterval(int64_t tick, int64_t* slot, int64_t* k) const;
  void ChangeInterval(int64_t tick, int64_t* slot, int64_t* k) const;
  // The keyframe tick of slot `slot` (at most the slot of a tick).
  int64_t SlotTick(int64_t slot) const;
  // Whether the state at `tick` is a live index's open interval's (the
  // tail's).
  bool InTail(int64_t tick) const { return live_ && tick >= open_tick_; }
  // The value of `field_id` of `e` as of `tick` from e's row (or the
  // tail): *out->found false when it has none.
  bool LatestValue(const EntityInfo& e, uint32_t field_id, int64_t tick, FoundValue* out,
                   std::string* storage, std::string* error);
  std::string KeyframeKeyText(const EntityInfo& e, int64_t keyframe_tick) const;

  bool ReadState(const EntityInfo& e, std::string* error);
  // e's creation state blob (empty: none recorded), valid until the next
  // read of another entity's state.
  bool CreationState(const EntityInfo& e, std::string_view* blob, std::string* error) {
    if (!ReadState(e, error)) return false;
    *blob = state_blob_;
    return true;
  }
  std::string StateKey(const EntityInfo& e) const;
  // Field `field_id`'s value in e's creation state (*found false when it
  // has none there), by a binary search of the state decoded once per
  // entity. The value's string points into state_blob_ (valid until
  // another entity's state is read).
  bool CreationValue(const EntityInfo& e, uint32_t field_id, bool* found, Value* value,
                     std::string* error);
  // Decodes e's creation state into creation_values_, unless it holds it.
  bool CreationValues(const EntityInfo& e, std::string* error);
  // e's creation values in ascending field id: visit(field_id, value)
  // until it returns false.
  template <typename Visit>
  bool EachStateValue(const EntityInfo& e, Visit&& visit, std::string* error);

  // Run `run` of field `field_id` of e's row of keyframe tick `k`, opened
  // in *r (its bytes are the reader's page copy, valid until the next run
  // is read). False with *error set when the page is missing or the run
  // does not decode.
  bool OpenRun(const EntityInfo& e, uint32_t field_id, int64_t k, const KeyframeRows::Run& run,
               ChunkReader* r, std::string* error);
  std::string RunDamaged(const EntityInfo& e, uint32_t field_id, const KeyframeRows::Run& run,
                         const std::string& what) const;

  // The tail's state of `e` (a live index's open interval): its rows read
  // once per reader (tail.cc). False with *error set.
  bool Tail(const EntityInfo& e, std::shared_ptr<const TailEntity>* out, std::string* error);

  sqlite3* db_;
  std::string schema_;
  std::string filename_;
  bool opened_ = false;
  std::vector<EntityInfo> entities_;
  std::unordered_map<int32_t, ClassInfoRow> classes_;  // by class id
  int64_t last_tick_ = INT64_MAX;
  bool live_ = false;
  int data_version_ = 0;  // a live index's, when opened (StillValid)
  double cell_width_ = 0;
  double world_offset_ = 0;
  int64_t keyframe_interval_ = 0;
  int64_t keyframe_last_tick_ = INT64_MAX;  // the last tick the intervals' rows cover
  int64_t open_tick_ = INT64_MAX;  // a live index's: the open interval's keyframe tick
  ReadCounters counters_;
  // Keyframe blocks already read, by key (KeyframeBlockKey), with the rows
  // of them read so far decoded (KeyframeRows), up to kf_cache_limit_:
  // a whole-state query reads each block of its interval and decodes each
  // row, and the next query at a tick of that interval (a viewer playing or
  // scrubbing) finds them here and decodes nothing. When a block read
  // would pass the bound, the blocks used least recently make room. A
  // block let go of lives on while a KeyframeWalk holds it (one a walk,
  // no longer counted).
  struct KeptBlock {
    KeyframeRows rows;
    uint64_t used = 0;  // kf_uses_ when last read
  };
  size_t kf_cache_limit_ = kDefaultKeyframeCacheBytes;
  KeyframeDecompressor kf_decompressor_;
  std::map<int64_t, std::shared_ptr<KeptBlock>> kf_blocks_;
  size_t kf_blocks_bytes_ = 0;
  uint64_t kf_uses_ = 0;
  // The block already read that holds entity `entity` at slot `slot`, or
  // null.
  std::shared_ptr<KeptBlock> CachedBlock(int64_t slot, int64_t entity) const;
  // Makes room for a block of `bytes` (KeptBlock's comment).
  void EvictKeyframeBlocks(size_t bytes);
  // e's row of slot `slot` (keyframe tick k), decoded: found in the block
  // holding it, which is read (and kept) when it was not, and decoded on
  // first use. *row stays valid while *block is held. False with *error
  // set when there is none or it does not decode.
  bool KeyframeRow(const EntityInfo& e, int64_t slot, int64_t k,
                   std::shared_ptr<const KeptBlock>* block, const KeyframeRows::Row** row,
                   std::string* error);

  // The last creation state read (one entity at a time, typically).
  int64_t state_entity_ = -1;
  std::string state_blob_;
  // Creation states already read (merged with their base), up to a bound:
  // a whole-state query reads every live entity's, and a viewer asks for
  // the same entities frame after frame. Like the entity list, they are
  // read once: an index is written once and never changed in place.
  static constexpr size_t kStateCacheBytes = 64u << 20;
  // StateAt of this many named fields or more walks the entity's row; of
  // fewer, reads each field on its own (no row's state walked past).
  static constexpr size_t kWalkFields = 8;
  std::unordered_map<int64_t, std::string> state_cache_;
  size_t state_cache_bytes_ = 0;
  std::string diff_blob_;  // ReadState: a difference being merged
  // CreationValue's decoded state of entity creation_entity_ (-1: none);
  // its strings point into state_blob_, so ReadState resets it whenever it
  // replaces the blob.
  int64_t creation_entity_ = -1;
  std::vector<std::pair<uint32_t, Value>> creation_values_;
  // The changes rows read lately, by id (a direct-mapped cache of their
  // bytes): the fields of one entity mostly share a few.
  static constexpr size_t kPageSlots = 256;
  struct PageSlot {
    int64_t id = 0;  // 0: empty
    std::string data;
  };
  std::vector<PageSlot> pages_;
  // A live index's tail: its rows by entity, read whole on first use (the
  // reader is opened anew at each commit), and each entity's, decoded.
  struct TailRow {
    int64_t seq = 0, tick = 0;
    std::string data;
  };
  bool LoadTail(std::string* error);
  bool tail_loaded_ = false;
  std::unordered_map<int64_t, std::vector<TailRow>> tail_rows_;
  std::unordered_map<int64_t, std::shared_ptr<const TailEntity>> tails_;

  sqlite3_stmt* page_ = nullptr;      // a changes row
  sqlite3_stmt* tail_ = nullptr;      // the tail's rows
  sqlite3_stmt* state_ = nullptr;     // creation state
  sqlite3_stmt* fields_ = nullptr;    // a class's fields
  sqlite3_stmt* keyframe_ = nullptr;  // the keyframe block at or below a key
};

// The readers of one connection, by schema name; shared by all functions.
//
// Readers keep prepared statements, and sqlite3_close() refuses to close a
// connection with statements left. SQLite disconnects every virtual table
// before that check, so: while readers exist, gem_state is kept connected
// (Anchor), and its xDisconnect calls Clear().
class Readers {
 public:
  explicit Readers(sqlite3* db) : db_(db) {}
  // The reader for `schema`, opened (validated) on first use; nullptr with
  // *error set when the schema is not a gem index.
  IndexReader* Get(std::string_view schema, std::string* error);
  ReadCounters Totals() const;
  // The keyframe cache limit of every reader, now and later (gem_debug's
  // neighbour gem_keyframe_cache sets it).
  size_t keyframe_cache_limit() const { return keyframe_cache_limit_; }
  void SetKeyframeCacheLimit(size_t bytes);
  // The bytes of keyframe blocks every reader keeps now.
  size_t KeyframeCacheBytes() const;
  // Finalizes every statement (the readers are rebuilt on demand).
  void Clear();
  // Virtual tables of this connection report in and out.
  void TableConnected() { ++connected_; }
  void TableDisconnected();

 private:
  void Anchor();

  sqlite3* db_;
  int connected_ = 0;
  ReadCounters retired_;  // counters of readers cleared away
  size_t keyframe_cache_limit_ = IndexReader::kDefaultKeyframeCacheBytes;
  std::unordered_map<std::string, std::unique_ptr<IndexReader>> readers_;
};

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_INDEX_READER_H_
