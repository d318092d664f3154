// IndexReader: reads one gem index (one schema of a connection: "main" or an
// attached name) for the extension's functions, with what every query needs
// cached: the entities' lifetimes and classes, and each class's fields.
//
// Reads go through the connection the extension is loaded into; one index
// seek per field answers an as-of question (the last chunk starting at or
// before the tick, else the entity's creation state).
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
#include "core/codec/keyframe_codec.h"
#include "core/codec/keyframe_rows.h"
#include "core/value.h"
#include "sqlext/sqlite_api.h"

namespace gem {
class ChunkReader;
}

namespace gem::sqlext {

// Counters that show what a query touched (gem_debug() reports them).
struct ReadCounters {
  uint64_t seeks = 0;          // chunk look-ups issued
  uint64_t chunks_read = 0;    // chunk blobs decoded
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
  // emitted: fewer than kKeyframeFields are one seek each, no other field
  // touched; more (with keyframes) are read from the keyframe row, seeking
  // only those of them that change often.
  bool StateAt(const EntityInfo& e, int64_t tick, const std::vector<uint32_t>* only,
               const std::function<void(uint32_t, const Value&)>& emit, std::string* error);
  // Whether StateAt with `only` reads keyframe rows (KeyframeWalk can).
  bool WalksKeyframes(const std::vector<uint32_t>* only) const {
    return keyframe_interval_ > 0 && (only == nullptr || only->size() >= kKeyframeFields);
  }

 private:
  struct KeptBlock;  // (below)

 public:
  // StateAt from the entity's keyframe row, one field at a time, for a
  // cursor that returns each field as it reaches it, with nothing gathered
  // first (keyframe_state.cc): the same fields, values and order. For a
  // reader that WalksKeyframes(only). Between calls the caller may run
  // other queries on this reader: the walk holds the block it reads (which
  // they may let go of) and reaches the block's arrays by position (which
  // their decoding may move).
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
    void Clear() { block_.reset(); }

   private:
    // Whether `only_` (not null) names the field.
    bool Wanted(uint32_t field);
    // State value `at` of the row into *value.
    void GetState(const KeyframeRows& rows, uint32_t at, Value* value);

    IndexReader* reader_ = nullptr;
    const EntityInfo* entity_ = nullptr;
    int64_t tick_ = 0, k_ = 0;
    uint64_t offset_ = 0;  // tick - k_
    const std::vector<uint32_t>* only_ = nullptr;
    size_t wanted_at_ = 0;
    std::shared_ptr<const KeptBlock> block_;
    const KeyframeRows::Row* row_ = nullptr;
    uint32_t state_at_ = 0, later_at_ = 0;  // the merge's places
    std::string string_;  // the last string returned, when not the block's
  };

  // Every change of field `field_id` of `e` with lo <= tick <= hi, in tick
  // order; the creation state counts as a change at the creation tick.
  bool Changes(const EntityInfo& e, uint32_t field_id, int64_t lo, int64_t hi,
               const std::function<void(int64_t, const Value&)>& emit, std::string* error);

  // Field ids of `e` that have change rows (ascending).
  bool ChangedFields(const EntityInfo& e, std::vector<uint32_t>* out, std::string* error);

  // The value of field `field_id` of `e` as of each tick first, first +
  // step, ... <= last (all within e's life), by one pass over the field's
  // changes: emit(tick, value) for each tick at which it has a value.
  // `start`, when given, is the field's value as of `first` (found or not:
  // a caller that read the entity's whole state at `first` from its
  // keyframe), saving the seek for it.
  bool Sample(const EntityInfo& e, uint32_t field_id, int64_t first, int64_t last,
              int64_t step, const std::function<void(int64_t, const Value&)>& emit,
              std::string* error, const FoundValue* start = nullptr);

  // From meta: the last tick of the replay, and the game's position rule
  // (world = cell * cell_width - world_offset + offset; 0 when unknown).
  int64_t last_tick() const { return last_tick_; }
  // Ticks between keyframes (0: the index has none).
  int64_t keyframe_interval() const { return keyframe_interval_; }
  double cell_width() const { return cell_width_; }
  double world_offset() const { return world_offset_; }

 private:
  // The last change of a field at or before `tick` (its value may be none:
  // dropped by an array shrink); kNone when it had none since creation.
  enum class Latest { kError, kNone, kChange };
  Latest LatestChange(const EntityInfo& e, uint32_t field_id, int64_t tick, FoundValue* out,
                      std::string* storage, std::string* error);

 public:
  // Field ids of `e` that ever had a value: its creation state and its
  // changed fields (ascending, distinct).
  bool FieldsWithValues(const EntityInfo& e, std::vector<uint32_t>* out, std::string* error);

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

  // StateAt through a KeyframeWalk; `only` as StateAt's.
  bool KeyframeStateAt(const EntityInfo& e, int64_t tick, const std::vector<uint32_t>* only,
                       const std::function<void(uint32_t, const Value&)>& emit,
                       std::string* error);
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
  // entity: a walk of every field asks for each in turn. The value's
  // string points into state_blob_ (valid until another entity's state is
  // read).
  bool CreationValue(const EntityInfo& e, uint32_t field_id, bool* found, Value* value,
                     std::string* error);
  // Decodes e's creation state into creation_values_, unless it holds it.
  bool CreationValues(const EntityInfo& e, std::string* error);
  // e's creation values in ascending field id: visit(field_id, value)
  // until it returns false.
  template <typename Visit>
  bool EachStateValue(const EntityInfo& e, Visit&& visit, std::string* error);
  // Opens the chunk in row `st` (start_tick, data) of e's field.
  bool OpenChunk(sqlite3_stmt* st, const EntityInfo& e, uint32_t field_id, ChunkReader* r,
                 std::string* error);
  std::string ChunkDamaged(sqlite3_stmt* st, const EntityInfo& e, uint32_t field_id) const;

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
  int64_t keyframe_last_tick_ = INT64_MAX;  // the last tick keyframes cover
  ReadCounters counters_;
  // Keyframe blocks already read, by key (KeyframeBlockKey), with the rows
  // of them read so far decoded (KeyframeRows), up to kf_cache_limit_:
  // a whole-state query reads each block of its interval and decodes each
  // row, and the next query at a tick of that interval (a viewer playing or
  // scrubbing) finds them here and decodes nothing. When a block read
  // would pass the bound, the blocks used least recently make room. On the
  // 60-minute synthetic index every row of one interval takes about 3.8 MB
  // decoded, its blocks' bodies included: 64 MiB keeps all 16 intervals.
  // A block let go of lives on while a KeyframeWalk holds it (one a walk,
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
  // e's keyframe row of slot `slot` (keyframe tick k), decoded: found in
  // the block holding it, which is read (and kept) when it was not, and
  // decoded on first use. *row stays valid while *block is held. False
  // with *error set when there is none or it does not decode.
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
  // StateAt of this many named fields or more reads the keyframe row (and
  // seeks only the fields that change often); of fewer, one seek per
  // field. On the 60-minute synthetic index, gem_state of every entity
  // pushed down to gem-view's 12 fields took 15.3 ms from keyframes
  // against 17.7 ms by seeks, to 6 fields about the same, to one field
  // 3.5 to 5.2 ms against 1.5 ms.
  static constexpr size_t kKeyframeFields = 8;
  std::unordered_map<int64_t, std::string> state_cache_;
  size_t state_cache_bytes_ = 0;
  std::string diff_blob_;  // ReadState: a difference being merged
  // CreationValue's decoded state of entity creation_entity_ (-1: none);
  // its strings point into state_blob_, so ReadState resets it whenever it
  // replaces the blob.
  int64_t creation_entity_ = -1;
  std::vector<std::pair<uint32_t, Value>> creation_values_;

  sqlite3_stmt* last_chunk_ = nullptr;   // latest chunk at or before a tick
  sqlite3_stmt* chunk_range_ = nullptr;  // chunks of a field overlapping a range
  sqlite3_stmt* next_field_ = nullptr;   // next field id with chunks
  sqlite3_stmt* state_ = nullptr;        // creation state
  sqlite3_stmt* fields_ = nullptr;       // a class's fields
  sqlite3_stmt* keyframe_ = nullptr;     // the keyframe block at or below a key
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
