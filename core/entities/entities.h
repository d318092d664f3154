// Entities: the live entities of a replay and the packet that changes them.
//
// svc_PacketEntities carries a bit stream of entity operations:
//   index delta (ubit var + 1), then a 2-bit command:
//   0 update: [2 PVS bits when the message has them: bit 0 = no data]
//             then field paths and values
//   2 create: class id (class_id_bits), serial (17 bits), a varint, then
//             field paths and values on top of the class baseline
//   1 leave (the entity stays), 3 leave and delete
// A create at an index that holds an entity of the same serial and class
// is that entity again (a client's recording sends one as it comes back
// into view, and again when a delta is from a frame before its creation):
// its lifetime goes on, its state becomes the class baseline with the
// create's values on top, and what differs is reported as one update.
// A new entity starts from its class baseline, decoded from the
// `instancebaseline` string table entry named by the class id; a class
// without a baseline starts from an empty state (counted). Only the first
// non-delta packet is applied: later ones (in full packets) restate what the
// deltas already built. The exception is a later part of a split recording
// (ExpectRestatement): its first non-delta packet is the state as that
// file starts, compared with the held one (see Restate).
// A packet that does not decode to its end is a fault, not a failure:
// what it held before the fault is kept, the entities it may have changed
// after it are stale until the next full packet refreshes them, and the
// parse goes on (core/entities/decode_fault.h states the rule).
#ifndef GEM_CORE_ENTITIES_ENTITIES_H_
#define GEM_CORE_ENTITIES_ENTITIES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/fields/class_fields.h"
#include "core/fields/field_path.h"
#include "core/entities/decode_fault.h"
#include "core/entities/field_state.h"
#include "core/fields/schema.h"
#include "core/events/sink.h"
#include "core/events/tick_order.h"
#include "core/util/status.h"

namespace gem {

// The parts of svc_PacketEntities that entity decoding reads (fields 2, 3,
// 7 and 16 of CSVCMsg_PacketEntities).
struct PacketEntities {
  int32_t updated_entries = 0;
  bool is_delta = false;      // legacy_is_delta
  bool has_pvs_bits = false;  // has_pvs_vis_bits(_deprecated) != 0
  int64_t server_tick = -1;   // the server tick the update brings the state to
  int64_t delta_from = -1;    // the server tick a delta is from
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// Reads those fields from a serialized message without copying the data;
// false when the message is malformed.
bool ReadPacketEntities(const uint8_t* msg, size_t size, PacketEntities* out);

struct Entity {
  int32_t index = -1;
  uint32_t serial = 0;
  int32_t class_id = -1;
  uint64_t lifetime = 0;  // 1, 2, 3, ... per created entity in the replay
  bool active = true;     // false after "leave"
  // Its values may be wrong or missing since a decode fault (DecodeFault),
  // until a full packet refreshes it.
  bool stale = false;
  // Its held state has values of a packet that faulted inside it, never
  // reported: the refresh reports its whole state.
  bool misread = false;
  ClassFields* fields = nullptr;
  FieldState state;

  // The entity handle as fields hold it: 14 index bits, then the serial.
  uint32_t handle() const { return (serial << 14) | static_cast<uint32_t>(index); }
  EntityRef ref() const;
};

// An entity as a full packet restates it (see EntityManager::DecodeSnapshot).
struct SnapshotEntity {
  int32_t index = -1;
  uint32_t serial = 0;
  int32_t class_id = -1;
  const ClassFields* fields = nullptr;
  FieldState state;
};

// What the restatement at the start of a later part changed (Restate).
struct RestateCounts {
  uint64_t kept = 0;     // entities held on: same index, serial and class
  uint64_t created = 0;  // entities new in the restatement
  uint64_t deleted = 0;  // held entities it does not hold (or holds anew)
  uint64_t changed_values = 0;  // values of kept entities that differ, drops included
};

struct EntityCounters {
  uint64_t created = 0;
  uint64_t updated = 0;
  uint64_t left = 0;
  uint64_t deleted = 0;
  uint64_t field_decodes = 0;           // values read, baselines included
  uint64_t field_decodes_delta = 0;     // values read from packets only
  uint64_t missing_baselines = 0;       // creates of a class with no baseline
  uint64_t skipped_full_packets = 0;    // later non-delta packets ignored
  uint64_t pvs_skips = 0;               // updates without data (PVS bits)
  // Creates at an index that holds an entity of the same serial and class
  // (a client's recording): kept as that entity, the new state an update.
  uint64_t recreated_kept = 0;
  uint64_t decode_faults = 0;     // packets that did not decode to their end
  uint64_t stale_marked = 0;      // entities made stale by them
  uint64_t fault_refreshes = 0;   // full packets that refreshed stale entities
};

class EntityManager {
 public:
  static constexpr int kMaxEntities = 1 << 14;

  EntityManager(const Schema* schema, Sink* sink);
  ~EntityManager();

  // ServerInfo.max_classes fixes the class id width.
  void SetMaxClasses(int32_t max_classes);
  unsigned class_id_bits() const { return class_id_bits_; }
  // A baseline (instancebaseline entry) for class `class_id` changed.
  void SetBaseline(int32_t class_id, std::string_view data);

  // Whether OnEntityCreated carries the entity's initial state (walking
  // the state costs; a parse-only run has nobody to read it).
  void set_report_created_state(bool on) { report_created_state_ = on; }
  // Whether the sink hears of updates, with their changes (and drops);
  // when off no change list is built: a parse that keeps only the state
  // has nobody to tell.
  void set_report_updates(bool on) { report_updates_ = on; }

  // Applies one svc_PacketEntities. `tick` is passed through to the sink.
  Status Apply(const PacketEntities& msg, const TickInfo& tick);

  // A later part of a split recording starts: its first non-delta packet
  // is applied by Restate, not skipped. A delta before it is Corrupt.
  void ExpectRestatement() { restate_next_ = true; }
  bool expecting_restatement() const { return restate_next_; }
  // The held state becomes the packet's: an entity it holds at the same
  // index with the same serial and class is the same entity (its lifetime
  // goes on; the values that differ, and those it no longer holds as
  // kNone, are reported as one update); any other held entity is deleted
  // and the packet's entity created. Deletes come first, then index order.
  Status Restate(const PacketEntities& msg, const TickInfo& tick);
  const RestateCounts& last_restatement() const { return restated_; }

  // Called with each full (non-delta) packet after the first, which
  // Apply skips: a self-check can decode it (DecodeSnapshot) and compare.
  // Its failure fails the parse.
  using FullPacketObserver = std::function<Status(const PacketEntities&, const TickInfo&)>;
  void set_full_packet_observer(FullPacketObserver f) { full_packet_observer_ = std::move(f); }
  // Decodes a full packet from scratch, beside the live entities and
  // without touching them or telling the sink of anything but fields seen
  // for the first time: each entity it holds is its class baseline with
  // the packet's values on top, as if the replay started here.
  Status DecodeSnapshot(const PacketEntities& msg, std::vector<SnapshotEntity>* out);

  const Entity* Get(int32_t index) const {
    return index >= 0 && index < kMaxEntities ? entities_[index] : nullptr;
  }
  // The same, to edit: for tools that build states (gem-synth) and for
  // tests that must leave a wrong value where a decoding error would.
  Entity* GetMutable(int32_t index) {
    return index >= 0 && index < kMaxEntities ? entities_[index] : nullptr;
  }
  // Class field registries, by class id (null until the class is seen).
  const ClassFields* class_fields(int32_t class_id) const {
    return class_id >= 0 && static_cast<size_t>(class_id) < classes_.size()
               ? classes_[class_id].fields.get()
               : nullptr;
  }
  ClassFields* mutable_class_fields(int32_t class_id);
  // The decoded baseline of a class (empty when it has none); for tools
  // that create entities. Null when the class has no serializer.
  const FieldState* Baseline(int32_t class_id, Status* status);
  size_t live_count() const { return live_; }
  const EntityCounters& counters() const { return counters_; }
  // Every decode fault, in order (DecodeFault).
  const std::vector<DecodeFault>& faults() const { return faults_; }
  // After a fault, looks for a rule for the field types no rule names
  // (Schema::default_rule_types): each candidate (kCandidateRules in
  // rule_search.cc) is tried on the packet that faulted, and the first
  // with which it decodes to its last bit is kept (UnknownTypeRule). The
  // schema's decoders change in place, so only the parse that owns
  // `schema` may enable it. Off by default.
  void EnableRuleSearch(Schema* schema) { rule_schema_ = schema; }
  const std::vector<UnknownTypeRule>& chosen_rules() const { return chosen_rules_; }
  uint64_t rule_searches() const { return rule_searches_; }
  uint64_t rules_undone() const { return rules_undone_; }
  // After the parse, for a caller with more to allocate: frees every
  // entity's state and each class's decoded baseline, most of a parse's
  // memory. Get() then finds no entity; counters, live_count() and the
  // class field registries stay. Nothing may be applied after it.
  void ReleaseStates();
  // The server tick the state was last brought to (the server_tick of the
  // last update applied; -1 when the messages do not say).
  int64_t state_server_tick() const { return state_server_tick_; }

  // Reads one field-path list and its values into `state`, recording the
  // changes. Public for tests and the baseline decoder.
  // `changes` may be null (baselines are not reported).
  // The error for a path that names no field of the class.
  static Status UnknownPath(const FieldPath& path, const ClassFields& fields);
  Status ReadFields(BitReader* r, ClassFields* fields, FieldState* state,
                    std::vector<FieldChange>* changes);

 private:
  struct ClassState {
    std::unique_ptr<ClassFields> fields;
    std::string baseline;          // raw instancebaseline data
    bool has_baseline = false;
    bool template_ready = false;   // `base_state` decoded from `baseline`
    FieldState base_state;
  };

  // What a create (in a delta or a full packet) says before its fields:
  // the class, its serial, and the class's decoded baseline, ready.
  struct CreateHeader {
    int32_t class_id = -1;
    uint32_t serial = 0;
    ClassFields* fields = nullptr;
    ClassState* class_state = nullptr;
  };
  Status ReadCreateHeader(BitReader* r, int64_t index, CreateHeader* out);
  ClassState* GetClassState(int32_t class_id);
  Status PrepareTemplate(ClassState* cs);
  Entity* NewEntity();
  void Release(Entity* e);
  void Delete(Entity* e, const TickInfo& tick);
  void FinishStrings(std::vector<FieldChange>* changes);
  // `e`'s state becomes `state`: the values that differ, and those it no
  // longer holds (as kNone), reported as one update. Returns their count.
  // With `whole`, every value it holds is reported (a misread entity's
  // held state differs from what the sink was told).
  size_t ReplaceState(Entity* e, const FieldState& state, const TickInfo& tick,
                      bool whole = false);
  // Restate's second half: the held state becomes restatement_'s.
  void ApplyRestatement(const TickInfo& tick);
  // A packet's entity operations; `at` is the index being read.
  Status ApplyEntries(const PacketEntities& msg, const TickInfo& tick, BitReader* r,
                      int64_t* at);
  // Faults (entity_faults.cc): the packet end's check, the fault's record
  // and its stale entities, and the refresh at a full packet.
  static Status CheckPacketEnd(BitReader* r);
  void RecordFault(const PacketEntities& msg, const TickInfo& tick, int64_t at,
                   const Status& s, uint64_t bit, bool at_end);
  Status Refresh(const PacketEntities& msg, const TickInfo& tick);
  // A misread update's drops (kNone in changes_), told to the sink.
  void ReportDrops(const TickInfo& tick, const Entity& e);
  // The open faults are refreshed by the restatement at `tick`.
  void CloseFaults(const TickInfo& tick);
  // Rule search (rule_search.cc): true when a rule was found, and every
  // live entity is then stale (their values may hold the old rule's reads).
  bool SearchRule(const PacketEntities& msg);
  // Undoes the rules no full packet has confirmed (a fault came first).
  void UndoUnconfirmedRules();
  bool DecodesExactly(const PacketEntities& msg);
  Status DryRun(const PacketEntities& msg);
  void ForgetTemplates();

  const Schema* schema_;
  Sink* sink_;
  unsigned class_id_bits_ = 0;
  bool applied_full_packet_ = false;
  bool restate_next_ = false;
  RestateCounts restated_;
  std::vector<SnapshotEntity> restatement_;
  // ReplaceState's, reused.
  FieldState replace_state_;
  std::vector<FieldChange> replace_before_, replace_after_;
  std::vector<const FieldChange*> replace_by_id_;
  int64_t state_server_tick_ = -1;
  FullPacketObserver full_packet_observer_;
  bool report_created_state_ = true;
  bool report_updates_ = true;
  uint64_t next_lifetime_ = 1;
  size_t live_ = 0;
  std::vector<Entity*> entities_;
  std::vector<std::unique_ptr<Entity>> pool_;
  std::vector<Entity*> free_;
  std::vector<ClassState> classes_;
  EntityCounters counters_;
  std::vector<DecodeFault> faults_;
  TickOrder ticks_;  // the index ticks of the packets applied, for faults_
  Schema* rule_schema_ = nullptr;
  std::vector<UnknownTypeRule> chosen_rules_;
  uint64_t rule_searches_ = 0;
  uint64_t rules_undone_ = 0;
  FieldState trial_state_;
  std::vector<SnapshotEntity> trial_snapshot_;
  size_t first_open_fault_ = 0;  // faults_ from here have not been refreshed
  std::vector<int32_t> touched_;  // the indexes the packet being read touched
  const ClassFields* reading_class_ = nullptr;  // of the entity being read
  std::string fault_field_;       // set by ReadFields when it fails
  std::vector<FieldChange> drops_;  // ReportDrops'

  // Reused per update: no allocation per field.
  std::vector<FieldPath> paths_;
  std::vector<uint32_t> slots_;  // ReadFields': the paths as layout slots
  size_t fields_read_ = 0;       // by the last ReadFields
  std::vector<FieldChange> changes_;
  struct PendingString {
    size_t change;  // index in changes_
    size_t offset;  // in strings_
    size_t size;
  };
  std::vector<PendingString> pending_strings_;
  std::string strings_;  // string values of one update
  std::string scratch_;
};

}  // namespace gem

#endif  // GEM_CORE_ENTITIES_ENTITIES_H_
