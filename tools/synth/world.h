// World: the state of a synthetic replay and its encoding.
//
// It starts from a real replay's signon and first packet (the schema,
// string tables, baselines and entities are real: the frames are copied
// verbatim and parsed once to learn the state they build). From then on it
// keeps its own copy of every entity's fields and of every string table,
// changes them on request and encodes each packet's changes with the rules
// the parser decodes (core/fields/field_encoder.h, WriteFieldPaths, the string
// table entry format), so the replay is valid for any Source 2 parser.
//
// The world's own copy is the ground truth: what it encoded, kept apart
// from the parser's structures, so a test of gem-index against it checks
// the decoders, the index and the queries together.
//
// Not thread-safe. Entity and table references stay valid until the entity
// is deleted.
#ifndef GEM_TOOLS_SYNTH_WORLD_H_
#define GEM_TOOLS_SYNTH_WORLD_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/fields/class_fields.h"
#include "core/fields/field_path.h"
#include "core/input/mapped_file.h"
#include "core/parser/parser.h"
#include "core/fields/value.h"
#include "tools/synth/replay_writer.h"

namespace gem::synth {

struct PathLess {
  bool operator()(const FieldPath& a, const FieldPath& b) const;
};

// A value that owns its string bytes.
struct OwnedValue {
  Value value;
  std::string bytes;

  OwnedValue() = default;
  explicit OwnedValue(const Value& v) { Assign(v); }
  OwnedValue(const OwnedValue& o) { Assign(o.value); }
  OwnedValue& operator=(const OwnedValue& o) {
    if (this != &o) Assign(o.value);
    return *this;
  }
  void Assign(const Value& v);
};

struct SimEntity {
  int32_t index = -1;
  uint32_t serial = 0;
  int32_t class_id = -1;
  ClassFields* fields = nullptr;
  std::map<FieldPath, OwnedValue, PathLess> state;

  uint32_t handle() const { return (serial << 14) | static_cast<uint32_t>(index); }
  const std::string& class_name() const { return fields->serializer()->name; }
};

struct SimTable {
  int32_t id = 0;
  std::string name;
  StringTableSettings settings;
  std::vector<StringTableEntry> entries;
};

struct WorldCounters {
  uint64_t packets = 0;
  uint64_t full_packets = 0;
  // Values changed by updates in delta packets, with the values an array
  // shrink drops (each a change to no value), as an index records them.
  uint64_t field_changes = 0;
  uint64_t created_values = 0;  // values written with creates
  uint64_t created = 0;
  uint64_t deleted = 0;
  uint64_t string_entries = 0;  // entries written in table updates
  uint64_t user_messages = 0;
  uint64_t max_live = 0;
};

class World {
 public:
  World();
  ~World();

  // Reads `fixture`: keeps its frames up to and including the first packet
  // after the signon (not its full packets, file info or stop), and parses
  // them to learn the state they build.
  Status Load(const std::string& fixture);
  uint32_t start_tick() const { return start_tick_; }
  // Seconds a tick, as the fixture's server info says.
  double tick_interval() const { return parser_->metadata().tick_interval; }

  // --- Building one packet -------------------------------------------
  // The value `name` (a dotted field name) of `e` becomes `value` (its
  // nearest representable value); no change is written when the entity
  // already holds it. False when the class has no such field.
  bool Set(SimEntity* e, const std::string& name, const Value& value);
  // The same by path (for array elements past the registered ones).
  bool SetPath(SimEntity* e, const FieldPath& path, const Value& value);
  // The current value of `name` (kNone when unset or unknown).
  Value Get(const SimEntity& e, const std::string& name);
  // Get as an integer (signed or unsigned); `fallback` for any other kind.
  int64_t GetInt(const SimEntity& e, const std::string& name, int64_t fallback);
  // The entity's EntityNames name (by m_pEntity.m_nameStringableIndex);
  // "" when it has none.
  std::string EntityName(const SimEntity& e);
  // The path of field `name` of a class, or null.
  const FieldPath* PathOf(int32_t class_id, const std::string& name);
  // A value of the kind field `name` decodes to, from a number (vectors
  // get it in every component); kNone when the class lacks the field.
  Value Number(const SimEntity& e, const std::string& name, double x);
  Value NumberFor(const FieldDecoder& d, double x) const;
  const FieldDecoder* DecoderOf(const SimEntity& e, const FieldPath& path);

  // A new entity of `class_id` from its baseline, at the lowest free index.
  SimEntity* Create(int32_t class_id);
  void Delete(SimEntity* e);
  // As a client's recording sees an entity go out of its view and come
  // back: Leave writes the leave command (the entity stays, hidden: its
  // changes are kept but not written); Enter writes it whole again as a
  // create at its index with its serial and class.
  void Leave(SimEntity* e);
  void Enter(SimEntity* e);
  bool hidden(const SimEntity& e) const { return hidden_.count(e.index) != 0; }

  // Sets entry `index` of a table (appends when index == size); entries
  // are written in the packet's table update.
  void SetEntry(SimTable* t, int32_t index, const std::string& name, const std::string& data);

  // Any inner message (combat log, chat, ...).
  void AddMessage(uint32_t type, std::string payload);
  // A game event by the fixture's event list: each of the descriptor's keys
  // from `keys` by name (its type's zero when absent; numbers convert to the
  // key's type; text for a number key is sent as a string key). False when
  // the list has no such event.
  bool AddGameEvent(std::string_view name, const std::map<std::string, Value>& keys);

  // Encodes the pending changes as one packet at `tick` and writes it.
  Status FlushPacket(uint32_t tick, ReplayWriter* out);
  // A full packet at `tick`: every table and every live entity.
  Status WriteFullPacket(uint32_t tick, ReplayWriter* out);
  // The kept frames of the fixture; then, at the end, DEM_Stop and the
  // file info with the playback length.
  Status WritePrefix(ReplayWriter* out);
  // WritePrefix leaves out the game-event descriptor list, as a recording
  // that began late or a server's hibernation bug leaves a replay.
  void LeaveOutEventList() { event_list_ = false; }
  // WritePrefix writes a client's recording of player `slot` instead of
  // the server's: the server info says so (is_hltv false, player_slot) and
  // the header's client name is the player's userinfo name.
  void RecordAsClient(int32_t slot) { client_slot_ = slot; }
  // The recording never receives the baseline of `class_id`: EnsureBaseline
  // keeps it for the world's own encoding (a create is still a delta from
  // it, as the server sends) but adds no instancebaseline entry, so a
  // reader cannot know the fields a create leaves at their baseline (a
  // class no fixture entity has gets a baseline of team 2, a T's).
  void WithholdBaseline(int32_t class_id) { withheld_baseline_ = class_id; }
  // WritePrefix's send tables name the field type `old_type` as
  // `new_type` (every field declared with exactly that type); the packets
  // still encode those fields by old_type's rule, as a patch that brings a
  // type no reader knows would.
  // The delta packet at `tick` loses the second half of its entity data
  // (a decode fault's test: what a reader keeps, and what goes stale).
  void DamagePacketAt(uint32_t tick) { damaged_tick_ = tick; }
  void Retype(std::string old_type, std::string new_type) {
    retype_ = {std::move(old_type), std::move(new_type)};
  }
  Status WriteEnd(uint32_t last_tick, ReplayWriter* out);
  // The draft the file info lists (CGameInfo.dota.picks_bans): (is_pick,
  // team, hero id) in order.
  void SetFileInfoDraft(std::vector<std::tuple<bool, uint32_t, int32_t>> picks) {
    file_info_draft_ = std::move(picks);
  }

  // Ground truth: `e`'s state in the golden snapshot shape, one line.
  void WriteTruth(uint32_t tick, const SimEntity& e, FILE* out);

  // --- Lookups ---------------------------------------------------------
  const std::map<int32_t, std::unique_ptr<SimEntity>>& entities() const { return entities_; }
  SimTable* FindTable(const std::string& name);
  // The class id of `name`, or -1.
  int32_t ClassId(const std::string& name) const;
  bool HasBaseline(int32_t class_id);
  // Makes sure a class has a baseline before its first entity: when the
  // kept frames have none but the whole fixture has one, the entry is
  // added to instancebaseline in the next packet, as a server does when a
  // class first appears; a class no entity of the fixture has gets a
  // baseline of no fields. False without an instancebaseline table.
  bool EnsureBaseline(int32_t class_id);
  const WorldCounters& counters() const { return counters_; }

 private:
  struct FieldWrite {
    FieldPath path;
    OwnedValue value;
    const FieldDecoder* decoder;
  };
  struct Pending {
    enum Kind { kUpdate, kCreate, kDelete, kLeave, kEnter } kind = kUpdate;
    std::vector<FieldWrite> writes;
  };

  void Adopt(const Entity& e);
  void DropPast(SimEntity* e, const FieldPath& length_path, uint64_t length);
  void EncodeEntity(const SimEntity& e, std::vector<FieldWrite>* writes, BitWriter* w);
  std::string EncodePacketEntities(uint32_t tick, bool full);
  std::string EncodeTableUpdate(const SimTable& t, const std::set<int32_t>& changed);
  std::string TableSnapshot() const;
  // The baseline of a withheld class no fixture entity has: team 2.
  std::string WithheldBaseline(int32_t class_id);

  MappedFile file_;
  std::unique_ptr<Parser> parser_;
  struct PrefixFrame {
    size_t at, bytes;  // as framed in the fixture
    uint32_t command, tick;
  };
  std::vector<PrefixFrame> prefix_;
  bool event_list_ = true;
  int32_t client_slot_ = -1;
  int32_t withheld_baseline_ = -1;
  std::pair<std::string, std::string> retype_;
  int64_t damaged_tick_ = -1;
  // The prefix frame at `f` as WritePrefix writes it (rewritten or not).
  Status RetypedSendTables(const PrefixFrame& f, ReplayWriter* out);
  Status PrefixFrameOut(const PrefixFrame& f, ReplayWriter* out);
  std::string ClientName() const;
  std::string spawn_groups_frame_;
  std::string file_info_;  // CDemoFileInfo payload of the fixture
  std::vector<std::tuple<bool, uint32_t, int32_t>> file_info_draft_;
  // instancebaseline entries of the whole fixture, by class id.
  std::map<int32_t, std::string> later_baselines_;
  uint32_t start_tick_ = 0;

  std::map<int32_t, std::unique_ptr<SimEntity>> entities_;  // by index
  std::map<int32_t, Pending> pending_;                      // by index
  std::set<int32_t> hidden_;  // left the view (Leave), by index
  std::map<int32_t, uint64_t> dropped_in_packet_;           // by index
  std::set<int32_t> free_indexes_;
  std::vector<int32_t> released_;  // deleted this packet: free after it
  std::vector<uint32_t> last_serial_;
  std::map<int32_t, std::map<std::string, FieldPath>> names_;  // by class
  std::map<std::string, int32_t> class_ids_;

  std::vector<SimTable> tables_;
  std::map<int32_t, std::set<int32_t>> pending_entries_;  // table -> indexes
  std::set<std::pair<int32_t, int32_t>> entry_is_new_;     // (table, index)
  std::vector<std::pair<uint32_t, std::string>> messages_;
  uint32_t packets_written_ = 0;
  WorldCounters counters_;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_WORLD_H_
