#include "tools/synth/world.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/input/demo_stream.h"
#include "core/fields/field_encoder.h"
#include "core/input/inner_messages.h"
#include "core/string_tables/string_table_writer.h"
#include "core/util/proto_wire.h"
#include "proto/demo.pb.h"
#include "proto/netmessages.pb.h"

namespace gem::synth {
namespace {

// Collects a state walk as (field id, value) pairs.
class Collector : public FieldState::Visitor {
 public:
  explicit Collector(std::vector<std::pair<uint32_t, OwnedValue>>* out) : out_(out) {}
  void Visit(uint32_t field_id, const Value& value) override {
    out_->emplace_back(field_id, OwnedValue(value));
  }

 private:
  std::vector<std::pair<uint32_t, OwnedValue>>* out_;
};

bool IsPrefixOf(const FieldPath& prefix, const FieldPath& path) {
  if (path.last <= prefix.last) return false;
  for (int i = 0; i <= prefix.last; ++i) {
    if (prefix.index[i] != path.index[i]) return false;
  }
  return true;
}

}  // namespace

bool PathLess::operator()(const FieldPath& a, const FieldPath& b) const {
  const int n = std::min(a.last, b.last);
  for (int i = 0; i <= n; ++i) {
    if (a.index[i] != b.index[i]) return a.index[i] < b.index[i];
  }
  return a.last < b.last;
}

void OwnedValue::Assign(const Value& v) {
  value = v;
  if (v.kind == ValueKind::kString) {
    bytes.assign(v.s.data(), v.s.size());
    value.s = bytes;
  } else {
    bytes.clear();
    value.s = {};
  }
}

World::World() = default;
World::~World() = default;

Status World::Load(const std::string& fixture) {
  GEM_RETURN_IF_ERROR(file_.Open(fixture));
  DemoStream stream(file_.data(), file_.size());
  GEM_RETURN_IF_ERROR(stream.Open());
  if (stream.position() != DemoStream::kHeaderSize) {
    return Status::Unsupported("the fixture must be a current Source 2 replay");
  }
  bool synced = false, done = false;
  size_t prefix_end = stream.position();
  while (!done) {
    Frame frame;
    bool end = false;
    const size_t at = stream.position();
    GEM_RETURN_IF_ERROR(stream.Next(&frame, &end));
    if (end) break;
    const size_t bytes = stream.position() - at;
    switch (frame.command) {
      case kDemFileInfo:
        file_info_.assign(reinterpret_cast<const char*>(frame.data), frame.size);
        continue;
      case kDemSpawnGroups:
        spawn_groups_frame_.assign(reinterpret_cast<const char*>(file_.data() + at), bytes);
        continue;
      case kDemStop:
        continue;
      case kDemFullPacket:
        if (synced) done = true;  // the synthetic packets restate everything
        continue;
      case kDemSyncTick:
        synced = true;
        break;
      case kDemPacket:
        if (synced) {
          start_tick_ = frame.tick;
          done = true;
        }
        break;
      default:
        break;
    }
    if (done && frame.command != kDemPacket) break;
    prefix_.push_back({at, bytes, frame.command, frame.tick});
    prefix_end = at + bytes;
  }
  if (!synced || prefix_.empty()) {
    return Status::Unsupported("the fixture has no packet after its signon");
  }
  // Keep scanning for the trailing file info and spawn groups.
  for (;;) {
    Frame frame;
    bool end = false;
    const size_t at = stream.position();
    if (!stream.Next(&frame, &end).ok() || end) break;
    if (frame.command == kDemFileInfo) {
      file_info_.assign(reinterpret_cast<const char*>(frame.data), frame.size);
    } else if (frame.command == kDemSpawnGroups) {
      spawn_groups_frame_.assign(reinterpret_cast<const char*>(file_.data() + at),
                                 stream.position() - at);
    }
  }

  parser_ = std::make_unique<Parser>(nullptr);
  Status s = parser_->Parse(file_.data(), prefix_end);
  if (!s.ok()) return s.WithContext("reading the fixture's signon");

  const EntityManager& em = parser_->entities();
  last_serial_.assign(EntityManager::kMaxEntities, 0);
  for (int32_t i = 1; i < EntityManager::kMaxEntities; ++i) {
    const Entity* e = em.Get(i);
    if (e != nullptr) {
      Adopt(*e);
    } else {
      free_indexes_.insert(i);
    }
  }
  if (em.Get(0) != nullptr) Adopt(*em.Get(0));
  const Schema& schema = parser_->schema();
  for (size_t id = 0; id < schema.class_slots(); ++id) {
    const ClassInfo* c = schema.GetClass(static_cast<int32_t>(id));
    if (c != nullptr && c->serializer != nullptr) class_ids_.emplace(c->name, c->id);
  }
  const StringTables& tables = parser_->string_tables();
  for (size_t id = 0; id < tables.size(); ++id) {
    const StringTable* t = tables.Get(static_cast<int32_t>(id));
    SimTable st;
    st.id = static_cast<int32_t>(id);
    st.name = t->name();
    st.settings = t->settings();
    for (size_t i = 0; i < t->size(); ++i) st.entries.push_back(t->entry(i));
    tables_.push_back(std::move(st));
  }
  // The baselines the whole fixture comes to have.
  Parser whole(nullptr);
  if (whole.Parse(file_.data(), file_.size()).ok()) {
    if (const StringTable* t = whole.string_tables().Find("instancebaseline")) {
      for (size_t i = 0; i < t->size(); ++i) {
        const StringTableEntry& e = t->entry(i);
        char* end = nullptr;
        const long id = std::strtol(e.name.c_str(), &end, 10);
        if (end != e.name.c_str() && *end == '\0' && !e.data.empty()) {
          later_baselines_.emplace(static_cast<int32_t>(id), e.data);
        }
      }
    }
  }
  counters_.max_live = entities_.size();
  return Status::Ok();
}

void World::Adopt(const Entity& e) {
  auto sim = std::make_unique<SimEntity>();
  sim->index = e.index;
  sim->serial = e.serial;
  sim->class_id = e.class_id;
  sim->fields = parser_->mutable_entities().mutable_class_fields(e.class_id);
  std::vector<std::pair<uint32_t, OwnedValue>> values;
  Collector collect(&values);
  e.state.VisitAll(sim->fields->layout(), &collect);
  for (auto& [id, v] : values) sim->state[sim->fields->path(id)] = v;
  last_serial_[e.index] = e.serial;
  entities_[e.index] = std::move(sim);
}

int32_t World::ClassId(const std::string& name) const {
  auto it = class_ids_.find(name);
  return it == class_ids_.end() ? -1 : it->second;
}

bool World::HasBaseline(int32_t class_id) {
  SimTable* t = FindTable("instancebaseline");
  if (t == nullptr) return false;
  const std::string key = std::to_string(class_id);
  for (const StringTableEntry& e : t->entries) {
    if (e.name == key && !e.data.empty()) return true;
  }
  return false;
}

bool World::EnsureBaseline(int32_t class_id) {
  if (class_id < 0) return false;
  if (HasBaseline(class_id)) return true;
  SimTable* t = FindTable("instancebaseline");
  if (t == nullptr) return false;
  auto later = later_baselines_.find(class_id);
  std::string data;
  if (later != later_baselines_.end()) {
    data = later->second;
  } else if (class_id == withheld_baseline_) {
    data = WithheldBaseline(class_id);
  } else {
    // No entity of the class anywhere in the fixture: a baseline of no
    // fields (a server sends one with the class's first entity).
    BitWriter w;
    WriteFieldPaths({}, &w);
    data = w.str();
  }
  if (class_id != withheld_baseline_) {
    SetEntry(t, static_cast<int32_t>(t->entries.size()), std::to_string(class_id), data);
  }
  parser_->mutable_entities().SetBaseline(class_id, data);
  return true;
}

std::string World::WithheldBaseline(int32_t class_id) {
  // A server's baseline holds its class's first entity's values; this one
  // holds team 2 (a T's), so that the creates of T's entities of the class
  // send no team, and a reader without the baseline cannot know it.
  SimEntity probe;
  probe.class_id = class_id;
  probe.fields = parser_->mutable_entities().mutable_class_fields(class_id);
  std::vector<FieldWrite> writes;
  const FieldPath* team = PathOf(class_id, "m_iTeamNum");
  if (team != nullptr && probe.fields != nullptr) {
    OwnedValue v;
    v.Assign(Number(probe, "m_iTeamNum", 2));
    if (!v.value.is_none()) writes.push_back({*team, v, DecoderOf(probe, *team)});
  }
  BitWriter w;
  EncodeEntity(probe, &writes, &w);
  return w.str();
}

SimTable* World::FindTable(const std::string& name) {
  for (SimTable& t : tables_) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const FieldDecoder* World::DecoderOf(const SimEntity& e, const FieldPath& path) {
  bool is_new = false;
  const uint32_t id = e.fields->Lookup(path, &is_new);
  return id == ClassFields::kInvalid ? nullptr : e.fields->decoder(id);
}

Value World::NumberFor(const FieldDecoder& d, double x) const {
  switch (d.op) {
    case DecodeOp::kBool:
      return Value::Bool(x != 0);
    case DecodeOp::kUVar32:
    case DecodeOp::kUVar64:
    case DecodeOp::kFixed64:
    case DecodeOp::kComponentBit:
    case DecodeOp::kPointer:
      return Value::Uint(static_cast<uint64_t>(std::max(0.0, x)));
    case DecodeOp::kSVar32:
    case DecodeOp::kSVar64:
    case DecodeOp::kUVar32MinusOne:
      return Value::Int(static_cast<int64_t>(x));
    case DecodeOp::kFloat:
      return Value::Float(static_cast<float>(x));
    case DecodeOp::kVector:
    case DecodeOp::kVectorNormal:
    case DecodeOp::kQAngleBits:
    case DecodeOp::kQAnglePitchYaw:
    case DecodeOp::kQAngleCoord:
    case DecodeOp::kQAnglePrecise: {
      const int n = d.op == DecodeOp::kVector ? d.count : 3;
      const float xs[4] = {static_cast<float>(x), static_cast<float>(x),
                           static_cast<float>(x), static_cast<float>(x)};
      return Value::Vector(xs, n);
    }
    default:
      return Value::None();
  }
}

Value World::Number(const SimEntity& e, const std::string& name, double x) {
  const FieldPath* path = PathOf(e.class_id, name);
  if (path == nullptr) return Value::None();
  const FieldDecoder* d = DecoderOf(e, *path);
  return d == nullptr ? Value::None() : NumberFor(*d, x);
}

Value World::Get(const SimEntity& e, const std::string& name) {
  const FieldPath* path = PathOf(e.class_id, name);
  if (path == nullptr) return Value::None();
  auto v = e.state.find(*path);
  return v == e.state.end() ? Value::None() : v->second.value;
}

int64_t World::GetInt(const SimEntity& e, const std::string& name, int64_t fallback) {
  const Value v = Get(e, name);
  switch (v.kind) {
    case ValueKind::kInt: return v.i;
    case ValueKind::kUint: return static_cast<int64_t>(v.u);
    default: return fallback;
  }
}

std::string World::EntityName(const SimEntity& e) {
  const SimTable* names = FindTable("EntityNames");
  const int64_t i = GetInt(e, "m_pEntity.m_nameStringableIndex", -1);
  return names != nullptr && i >= 0 && static_cast<size_t>(i) < names->entries.size()
             ? names->entries[static_cast<size_t>(i)].name
             : "";
}

bool World::Set(SimEntity* e, const std::string& name, const Value& value) {
  const FieldPath* path = PathOf(e->class_id, name);
  return path != nullptr && SetPath(e, *path, value);
}

bool World::SetPath(SimEntity* e, const FieldPath& path, const Value& value) {
  if (value.is_none()) return false;
  bool is_new = false;
  const uint32_t id = e->fields->Lookup(path, &is_new);
  if (id == ClassFields::kInvalid) return false;
  const FieldDecoder* decoder = e->fields->decoder(id);
  const Value exact = RepresentableValue(*decoder, value);
  auto it = e->state.find(path);
  if (it != e->state.end() && it->second.value.SameAs(exact)) return true;
  if (it == e->state.end()) it = e->state.emplace(path, OwnedValue()).first;
  it->second.Assign(exact);
  if (e->fields->is_length(id) && exact.kind == ValueKind::kUint) DropPast(e, path, exact.u);
  if (hidden_.count(e->index) != 0) return true;  // written when it comes back
  Pending& p = pending_[e->index];
  for (FieldWrite& w : p.writes) {
    if (w.path == path) {
      w.value = it->second;
      return true;
    }
  }
  p.writes.push_back({path, it->second, decoder});
  return true;
}

void World::DropPast(SimEntity* e, const FieldPath& length_path, uint64_t length) {
  const int level = length_path.last + 1;
  for (auto it = e->state.upper_bound(length_path); it != e->state.end();) {
    if (!IsPrefixOf(length_path, it->first)) break;
    if (static_cast<uint64_t>(it->first.index[level]) >= length) {
      if (!it->second.value.is_none()) ++dropped_in_packet_[e->index];
      it = e->state.erase(it);
    } else {
      ++it;
    }
  }
}

SimEntity* World::Create(int32_t class_id) {
  if (free_indexes_.empty()) return nullptr;
  ClassFields* fields = parser_->mutable_entities().mutable_class_fields(class_id);
  if (fields == nullptr) return nullptr;
  Status status;
  const FieldState* baseline = parser_->mutable_entities().Baseline(class_id, &status);
  if (baseline == nullptr) return nullptr;
  const int32_t index = *free_indexes_.begin();
  free_indexes_.erase(free_indexes_.begin());
  auto sim = std::make_unique<SimEntity>();
  sim->index = index;
  sim->serial = (last_serial_[index] + 1) & ((1u << 17) - 1);
  if (sim->serial == 0) sim->serial = 1;
  last_serial_[index] = sim->serial;
  sim->class_id = class_id;
  sim->fields = fields;
  std::vector<std::pair<uint32_t, OwnedValue>> values;
  Collector collect(&values);
  baseline->VisitAll(fields->layout(), &collect);
  for (auto& [id, v] : values) sim->state[fields->path(id)] = v;
  Pending& p = pending_[index];
  p.kind = Pending::kCreate;
  p.writes.clear();
  SimEntity* out = sim.get();
  entities_[index] = std::move(sim);
  ++counters_.created;
  counters_.max_live = std::max<uint64_t>(counters_.max_live, entities_.size());
  return out;
}

void World::Delete(SimEntity* e) {
  const int32_t index = e->index;
  hidden_.erase(index);
  Pending& p = pending_[index];
  p.kind = Pending::kDelete;
  p.writes.clear();
  entities_.erase(index);
  released_.push_back(index);
  ++counters_.deleted;
}

void World::Leave(SimEntity* e) {
  Pending& p = pending_[e->index];
  p.kind = Pending::kLeave;
  p.writes.clear();
  hidden_.insert(e->index);
}

void World::Enter(SimEntity* e) {
  hidden_.erase(e->index);
  Pending& p = pending_[e->index];
  p.kind = Pending::kEnter;
  p.writes.clear();
  for (const auto& [path, v] : e->state) p.writes.push_back({path, v, DecoderOf(*e, path)});
}

void World::SetEntry(SimTable* t, int32_t index, const std::string& name,
                     const std::string& data) {
  if (index < 0 || static_cast<size_t>(index) > t->entries.size()) return;
  if (static_cast<size_t>(index) == t->entries.size()) {
    t->entries.push_back({name, data});
    entry_is_new_.insert({t->id, index});
  } else {
    t->entries[index].data = data;  // names never change
  }
  pending_entries_[t->id].insert(index);
}

void World::AddMessage(uint32_t type, std::string payload) {
  messages_.emplace_back(type, std::move(payload));
}

void World::EncodeEntity(const SimEntity& e, std::vector<FieldWrite>* writes, BitWriter* w) {
  std::sort(writes->begin(), writes->end(),
            [](const FieldWrite& a, const FieldWrite& b) { return PathLess()(a.path, b.path); });
  std::vector<FieldPath> paths;
  paths.reserve(writes->size());
  for (const FieldWrite& fw : *writes) paths.push_back(fw.path);
  WriteFieldPaths(paths, w);
  for (const FieldWrite& fw : *writes) {
    if (!EncodeField(*fw.decoder, fw.value.value, w)) {
      std::fprintf(stderr, "gem-synth: internal error: %s %s cannot hold a %s\n",
                   e.class_name().c_str(), fw.path.ToString().c_str(),
                   ValueKindName(fw.value.value.kind));
      std::abort();
    }
  }
}

std::string World::EncodePacketEntities(uint32_t tick, bool full) {
  BitWriter w;
  int32_t last = -1, count = 0;
  const unsigned class_bits = parser_->entities().class_id_bits();
  auto write_create = [&](const SimEntity& e, std::vector<FieldWrite>* writes) {
    w.WriteBits(2, 2);
    w.WriteBits(static_cast<uint32_t>(e.class_id), class_bits);
    w.WriteBits(e.serial, 17);
    w.WriteVarUint32(0);
    EncodeEntity(e, writes, &w);
  };
  if (full) {
    for (const auto& [index, e] : entities_) {
      std::vector<FieldWrite> writes;
      for (const auto& [path, v] : e->state) {
        writes.push_back({path, v, DecoderOf(*e, path)});
      }
      w.WriteUBitVar(static_cast<uint32_t>(index - last - 1));
      last = index;
      write_create(*e, &writes);
      ++count;
    }
  } else {
    for (auto& [index, p] : pending_) {
      w.WriteUBitVar(static_cast<uint32_t>(index - last - 1));
      last = index;
      ++count;
      if (p.kind == Pending::kUpdate) {
        counters_.field_changes += p.writes.size() + dropped_in_packet_[index];
      } else if (p.kind == Pending::kCreate) {
        counters_.created_values += p.writes.size();
      }
      if (p.kind == Pending::kDelete) {
        w.WriteBits(3, 2);
      } else if (p.kind == Pending::kLeave) {
        w.WriteBits(1, 2);
      } else if (p.kind == Pending::kCreate || p.kind == Pending::kEnter) {
        write_create(*entities_.at(index), &p.writes);
      } else {
        w.WriteBits(0, 2);
        EncodeEntity(*entities_.at(index), &p.writes, &w);
      }
    }
  }
  proto::CSVCMsg_PacketEntities msg;
  msg.set_max_entries(EntityManager::kMaxEntities);
  msg.set_updated_entries(count);
  msg.set_legacy_is_delta(!full);
  msg.set_update_baseline(false);
  msg.set_baseline(0);
  msg.set_delta_from(full ? -1 : static_cast<int32_t>(tick) - 2);
  std::string data = w.str();
  // A damaged packet: its second half lost, as a misread would lose it.
  if (!full && tick == damaged_tick_) data.resize(data.size() / 2);
  msg.set_entity_data(data);
  msg.set_server_tick(tick);
  return msg.SerializeAsString();
}

std::string World::EncodeTableUpdate(const SimTable& t, const std::set<int32_t>& changed) {
  const std::vector<int32_t> indices(changed.begin(), changed.end());
  counters_.string_entries += indices.size();
  // A name is sent with a new entry only (names never change after).
  std::string bits = EncodeStringTableEntries(
      t.settings, t.entries, indices,
      [&](int32_t index) { return entry_is_new_.count({t.id, index}) != 0; });
  proto::CSVCMsg_UpdateStringTable msg;
  msg.set_table_id(t.id);
  msg.set_num_changed_entries(static_cast<int32_t>(changed.size()));
  msg.set_string_data(bits);
  return msg.SerializeAsString();
}

Status World::FlushPacket(uint32_t tick, ReplayWriter* out) {
  PacketBuilder packet;
  proto::CNETMsg_Tick net_tick;
  net_tick.set_tick(tick);
  packet.Add(kNetTick, net_tick.SerializeAsString());
  for (const auto& [table_id, changed] : pending_entries_) {
    packet.Add(kSvcUpdateStringTable, EncodeTableUpdate(tables_[table_id], changed));
  }
  pending_entries_.clear();
  entry_is_new_.clear();
  if (!pending_.empty()) {
    packet.Add(kSvcPacketEntities, EncodePacketEntities(tick, false));
  }
  pending_.clear();
  dropped_in_packet_.clear();
  for (auto& [type, payload] : messages_) {
    packet.Add(type, payload);
    ++counters_.user_messages;
  }
  messages_.clear();
  for (int32_t index : released_) free_indexes_.insert(index);
  released_.clear();
  proto::CDemoPacket frame;
  frame.set_data(packet.Finish());
  ++counters_.packets;
  return out->Frame(kDemPacket, tick, frame.SerializeAsString());
}

Status World::WriteFullPacket(uint32_t tick, ReplayWriter* out) {
  proto::CDemoFullPacket full;
  proto::CDemoStringTables* snapshot = full.mutable_string_table();
  for (const SimTable& t : tables_) AddSnapshotTable(t.name, t.settings.flags, t.entries, snapshot);
  PacketBuilder packet;
  proto::CNETMsg_Tick net_tick;
  net_tick.set_tick(tick);
  packet.Add(kNetTick, net_tick.SerializeAsString());
  packet.Add(kSvcPacketEntities, EncodePacketEntities(tick, true));
  full.mutable_packet()->set_data(packet.Finish());
  ++counters_.full_packets;
  return out->Frame(kDemFullPacket, tick, full.SerializeAsString());
}

}  // namespace gem::synth
