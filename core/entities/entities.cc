#include "core/entities/entities.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/entities/change_collector.h"
#include "core/util/proto_wire.h"

namespace gem {
namespace {

// The type a polymorphic pointer currently holds on a state.
struct PolyContext {
  const FieldState* state;
  const FieldLayout* layout;
};
uint32_t PolymorphicChoice(const void* ctx, const FieldPath& prefix) {
  const auto* c = static_cast<const PolyContext*>(ctx);
  FieldState::Stored s = c->state->Get(*c->layout, prefix);
  return s.value.kind == ValueKind::kUint ? static_cast<uint32_t>(s.value.u) : 0;
}

bool IndexTooLarge(const FieldPath& path) {
  for (int i = 0; i <= path.last; ++i) {
    if (path.index[i] < 0 || path.index[i] > FieldLayout::kMaxIndex) return true;
  }
  return false;
}

}  // namespace

EntityRef Entity::ref() const {
  EntityRef r;
  r.index = index;
  r.serial = serial;
  r.class_id = class_id;
  r.handle = handle();
  r.lifetime = lifetime;
  return r;
}

EntityManager::EntityManager(const Schema* schema, Sink* sink)
    : schema_(schema), sink_(sink), entities_(kMaxEntities, nullptr) {}

EntityManager::~EntityManager() = default;

void EntityManager::SetMaxClasses(int32_t max_classes) {
  if (max_classes <= 0) return;
  // floor(log2(max_classes)) + 1, as the engine sizes class ids.
  unsigned bits = 0;
  while ((uint64_t{1} << (bits + 1)) <= static_cast<uint64_t>(max_classes)) ++bits;
  class_id_bits_ = bits + 1;
}

EntityManager::ClassState* EntityManager::GetClassState(int32_t class_id) {
  if (class_id < 0 || class_id > (1 << 20)) return nullptr;
  if (static_cast<size_t>(class_id) >= classes_.size()) {
    classes_.resize(class_id + 1);
  }
  return &classes_[class_id];
}

ClassFields* EntityManager::mutable_class_fields(int32_t class_id) {
  const ClassInfo* info = schema_->GetClass(class_id);
  if (info == nullptr || info->serializer == nullptr) return nullptr;
  ClassState* cs = GetClassState(class_id);
  if (cs == nullptr) return nullptr;
  if (!cs->fields || cs->fields->serializer() != info->serializer) {
    cs->fields = std::make_unique<ClassFields>(class_id, info->serializer);
    cs->template_ready = false;
  }
  return cs->fields.get();
}

void EntityManager::SetBaseline(int32_t class_id, std::string_view data) {
  ClassState* cs = GetClassState(class_id);
  if (cs == nullptr) return;
  cs->baseline.assign(data);
  cs->has_baseline = !data.empty();
  cs->template_ready = false;
}

const FieldState* EntityManager::Baseline(int32_t class_id, Status* status) {
  ClassFields* fields = mutable_class_fields(class_id);
  if (fields == nullptr) return nullptr;
  ClassState* cs = GetClassState(class_id);
  *status = PrepareTemplate(cs);
  return status->ok() ? &cs->base_state : nullptr;
}

Status EntityManager::PrepareTemplate(ClassState* cs) {
  if (cs->template_ready) return Status::Ok();
  cs->base_state.Reset();
  if (cs->has_baseline) {
    BitReader r(reinterpret_cast<const uint8_t*>(cs->baseline.data()),
                cs->baseline.size());
    Status s = ReadFields(&r, cs->fields.get(), &cs->base_state, nullptr);
    if (!s.ok()) {
      return s.WithContext("baseline of class " +
                           std::to_string(cs->fields->class_id()));
    }
  }
  cs->template_ready = true;
  return Status::Ok();
}

Status EntityManager::UnknownPath(const FieldPath& path, const ClassFields& fields) {
  return Status::Corrupt("field path " + path.ToString() +
                         (IndexTooLarge(path) ? " has an index too large to be real"
                                              : " does not exist in class " +
                                                    fields.serializer()->name));
}

Status EntityManager::ReadFields(BitReader* r, ClassFields* fields,
                                 FieldState* state,
                                 std::vector<FieldChange>* changes) {
  ChangeCollector dropped(changes);
  const FieldLayout& layout = fields->layout();
  const PolyContext poly{state, &layout};
  // A class without polymorphic pointers reads its paths as layout slots
  // as they come (a path seen before is then one load away from its
  // field); a polymorphic one needs each whole path, and the values
  // before it, to choose its field.
  const bool polymorphic = fields->polymorphic();
  size_t count = 0;
  fields_read_ = 0;
  if (polymorphic) {
    GEM_RETURN_IF_ERROR(ReadFieldPaths(r, &paths_));
    count = paths_.size();
  } else {
    GEM_RETURN_IF_ERROR(ReadFieldSlots(r, layout, &slots_, &paths_));
    count = slots_.size();
  }
  fields_read_ = count;
  size_t next_unknown = 0;  // in paths_, for slots_ of kNone
  for (size_t i = 0; i < count; ++i) {
    bool is_new = false;
    ClassFields::Decoding d;
    uint32_t id;
    const ClassFields::SlotField* at_slot =
        polymorphic ? nullptr : fields->DecodingAt(slots_[i]);
    if (at_slot != nullptr) {
      d = {at_slot->decoder, slots_[i], at_slot->is_length, at_slot->plain};
      id = at_slot->id;
    } else {
      // A polymorphic class's path, or the first sight of a field (or of
      // its path: it may lie where a prefix of another was).
      const FieldPath path = polymorphic                       ? paths_[i]
                             : slots_[i] == FieldLayout::kNone ? paths_[next_unknown++]
                                                               : layout.path(slots_[i]);
      id = fields->Lookup(path, &is_new, polymorphic ? PolymorphicChoice : nullptr, &poly);
      if (id == ClassFields::kInvalid) {
        fault_field_ = path.ToString();
        return UnknownPath(path, *fields);
      }
      // Copied: the record may move with the next lookup.
      d = fields->decoding(id);
    }
    if (is_new && sink_ != nullptr) sink_->OnFieldRegistered(*fields, id);
    const FieldDecoder* decoder = d.decoder;
    const uint32_t slot = d.slot;
    const bool is_length = d.is_length;
    if (changes == nullptr) {
      Value value;
      decoder->DecodeInline(r, &value, &scratch_);
      if (d.plain) {
        state->SetPlain(layout, slot, value, id);
      } else {
        state->Set(layout, slot, value, id, is_length, nullptr);
      }
      continue;
    }
    // Decoded straight into the change list: copying a value just decoded
    // elsewhere reads back, 16 bytes at a time, what narrower writes have
    // just made, and waits on them (a third of this loop's time).
    FieldChange& change = changes->emplace_back();
    change.field_id = id;
    decoder->DecodeInline(r, &change.value, &scratch_);
    if (change.value.kind == ValueKind::kString) {
      pending_strings_.push_back({changes->size() - 1, strings_.size(), change.value.s.size()});
      strings_.append(change.value.s);
    }
    if (d.plain) {
      state->SetPlain(layout, slot, change.value, id);
    } else if (is_length) {
      // Its drops are appended to `changes`, which may move.
      const Value length = change.value;
      state->Set(layout, slot, length, id, true, &dropped);
    } else {
      state->Set(layout, slot, change.value, id, false, nullptr);
    }
  }
  counters_.field_decodes += count;
  if (r->overflowed()) {
    // The last field read is where the data ran out (not necessarily the
    // one misread).
    fault_field_.clear();
    if (count > 0 && !polymorphic && slots_[count - 1] != FieldLayout::kNone) {
      const ClassFields::SlotField* last = fields->DecodingAt(slots_[count - 1]);
      if (last != nullptr) fault_field_ = fields->text(last->id).name;
    } else if (count > 0 && polymorphic) {
      fault_field_ = paths_[count - 1].ToString();
    }
    return Status::Corrupt("field values run past the end of the data");
  }
  return Status::Ok();
}

void EntityManager::FinishStrings(std::vector<FieldChange>* changes) {
  for (const PendingString& p : pending_strings_) {
    (*changes)[p.change].value.s = std::string_view(strings_).substr(p.offset, p.size);
  }
  pending_strings_.clear();
}

Entity* EntityManager::NewEntity() {
  if (!free_.empty()) {
    Entity* e = free_.back();
    free_.pop_back();
    return e;
  }
  pool_.push_back(std::make_unique<Entity>());
  return pool_.back().get();
}

void EntityManager::Release(Entity* e) { free_.push_back(e); }

void EntityManager::ReleaseStates() {
  std::fill(entities_.begin(), entities_.end(), nullptr);
  std::vector<Entity*>().swap(free_);
  std::vector<std::unique_ptr<Entity>>().swap(pool_);
  for (ClassState& cs : classes_) {
    cs.template_ready = false;
    cs.base_state = FieldState();
  }
}

void EntityManager::Delete(Entity* e, const TickInfo& tick) {
  ++counters_.deleted;
  if (sink_ != nullptr) sink_->OnEntityDeleted(tick, e->ref());
  entities_[e->index] = nullptr;
  --live_;
  Release(e);
}

bool ReadPacketEntities(const uint8_t* msg, size_t size, PacketEntities* out) {
  *out = PacketEntities();
  WireReader r(msg, size);
  while (r.Next()) {
    switch (r.field()) {
      case 2:
        out->updated_entries = r.int32();
        break;
      case 3:
        out->is_delta = r.varint() != 0;
        break;
      case 6:
        out->delta_from = r.int32();
        break;
      case 7:
        out->data = r.bytes_data();
        out->size = r.bytes().size();
        break;
      case 12:
        out->server_tick = static_cast<int64_t>(r.varint());
        break;
      case 16:
        out->has_pvs_bits = r.varint() != 0;
        break;
      default:
        break;
    }
  }
  return r.ok();
}

Status EntityManager::ReadCreateHeader(BitReader* r, int64_t index, CreateHeader* out) {
  if (class_id_bits_ == 0) return Status::Corrupt("entity created before the server info");
  out->class_id = static_cast<int32_t>(r->ReadBits(class_id_bits_));
  out->serial = r->ReadBits(17);
  r->ReadVarUint32();  // spawn group handle
  out->fields = mutable_class_fields(out->class_id);
  if (out->fields == nullptr) {
    return Status::Corrupt("entity " + std::to_string(index) + " has class " +
                           std::to_string(out->class_id) + ", which has no serializer");
  }
  out->class_state = GetClassState(out->class_id);
  return PrepareTemplate(out->class_state);
}

Status EntityManager::Apply(const PacketEntities& msg, const TickInfo& tick) {
  ticks_.Next(tick);
  if (restate_next_) {
    if (msg.is_delta) {
      return Status::Corrupt("a later part's first entity update is a delta, not the whole state");
    }
    return Restate(msg, tick);
  }
  if (!msg.is_delta) {
    // A full snapshot restates the state; only the first one builds it.
    if (applied_full_packet_) {
      // Stale entities are taken from it; else it restates what the
      // deltas built.
      if (first_open_fault_ < faults_.size()) return Refresh(msg, tick);
      ++counters_.skipped_full_packets;
      return full_packet_observer_ ? full_packet_observer_(msg, tick) : Status::Ok();
    }
    applied_full_packet_ = true;
  }
  state_server_tick_ = msg.server_tick;
  BitReader r(msg.data, msg.size);
  int64_t at = -1;
  touched_.clear();
  reading_class_ = nullptr;
  Status s = ApplyEntries(msg, tick, &r, &at);
  const bool at_end = s.ok();
  if (at_end) s = CheckPacketEnd(&r);
  if (s.ok()) return s;
  // A packet that does not decode is a fault, kept and told; anything
  // else (an allocation, a sink's failure) fails the parse.
  if (s.code() != Status::Code::kCorrupt) return s;
  RecordFault(msg, tick, at, s, r.position_bits(), at_end);
  // A rule found for a type no rule named: a full packet that now decodes
  // refreshes at once; a delta's loss waits for the next full packet.
  UndoUnconfirmedRules();
  if (SearchRule(msg) && !msg.is_delta) return Refresh(msg, tick);
  return Status::Ok();
}

Status EntityManager::ApplyEntries(const PacketEntities& msg, const TickInfo& tick,
                                   BitReader* reader, int64_t* at) {
  BitReader& r = *reader;
  const bool pvs_bits = msg.has_pvs_bits;
  int64_t& index = *at;
  const int32_t updates = msg.updated_entries;
  if (updates < 0 || static_cast<uint64_t>(updates) > msg.size * 8 + 1) {
    return Status::Corrupt("packet entities claims " + std::to_string(updates) +
                           " updates in " + std::to_string(msg.size) + " bytes");
  }
  for (int32_t n = 0; n < updates; ++n) {
    index += static_cast<int64_t>(r.ReadUBitVar()) + 1;
    if (r.overflowed()) {
      return Status::Corrupt("entity list runs past the end of the data");
    }
    if (index >= kMaxEntities) {
      return Status::Corrupt("entity index " + std::to_string(index) +
                             " is out of range");
    }
    uint32_t cmd = r.ReadBits(2);
    Entity* e = entities_[index];
    touched_.push_back(static_cast<int32_t>(index));
    reading_class_ = e != nullptr ? e->fields : nullptr;
    if ((cmd & 1) == 0) {
      if (cmd & 2) {
        // Create.
        CreateHeader h;
        reading_class_ = nullptr;
        GEM_RETURN_IF_ERROR(ReadCreateHeader(&r, index, &h));
        reading_class_ = h.fields;
        const int32_t class_id = h.class_id;
        const uint32_t serial = h.serial;
        ClassFields* fields = h.fields;
        ClassState* cs = h.class_state;
        if (e != nullptr && e->serial == serial && e->class_id == class_id) {
          // The same entity again (a client's recording: back in view, or
          // a delta from a frame before its creation): its lifetime goes
          // on, and its new state is one update.
          replace_state_ = cs->has_baseline ? cs->base_state : FieldState();
          if (!cs->has_baseline) ++counters_.missing_baselines;
          Status s = ReadFields(&r, fields, &replace_state_, nullptr);
          counters_.field_decodes_delta += fields_read_;
          if (!s.ok()) {
            return s.WithContext("recreating entity " + std::to_string(index) + " (" +
                                 fields->serializer()->name + ")");
          }
          ++counters_.recreated_kept;
          ReplaceState(e, replace_state_, tick, e->misread);
          e->misread = false;
          continue;
        }
        // The entity it replaces goes once the new one has decoded: a
        // create that faults leaves it in place (stale), not deleted.
        Entity* replaced = e;
        e = NewEntity();
        e->index = static_cast<int32_t>(index);
        e->serial = serial;
        e->class_id = class_id;
        e->lifetime = next_lifetime_++;
        e->active = true;
        e->stale = e->misread = false;
        e->fields = fields;
        if (cs->has_baseline) {
          e->state = cs->base_state;
        } else {
          e->state.Reset();
          ++counters_.missing_baselines;
        }
        // The creation's own values are not reported as changes: the sink
        // hears the whole state (below).
        Status s = ReadFields(&r, fields, &e->state, nullptr);
        counters_.field_decodes_delta += fields_read_;
        if (!s.ok()) {
          Release(e);
          return s.WithContext("creating entity " + std::to_string(index) +
                               " (" + fields->serializer()->name + ")");
        }
        if (replaced != nullptr) Delete(replaced, tick);
        entities_[index] = e;
        ++live_;
        ++counters_.created;
        if (sink_ != nullptr) {
          changes_.clear();
          if (report_created_state_) {
            ChangeCollector all(&changes_);
            e->state.VisitAll(fields->layout(), &all);
          }
          sink_->OnEntityCreated(tick, e->ref(), changes_);
        }
      } else {
        // Update.
        if (e == nullptr) {
          return Status::Corrupt("update of entity " + std::to_string(index) +
                                 ", which does not exist");
        }
        if (pvs_bits) {
          uint32_t pvs = r.ReadBits(2);
          if (pvs & 1) {
            ++counters_.pvs_skips;
            continue;
          }
        }
        e->active = true;
        const bool report = sink_ != nullptr && report_updates_;
        if (report) {
          changes_.clear();
          strings_.clear();
        }
        Status s = ReadFields(&r, e->fields, &e->state, report ? &changes_ : nullptr);
        counters_.field_decodes_delta += fields_read_;
        if (report) FinishStrings(&changes_);
        if (!s.ok()) {
          // The values read before the fault are held, never reported: the
          // refresh reports the whole state. The drops it made are told
          // now (the held state no longer has those elements).
          e->misread = true;
          if (report) ReportDrops(tick, *e);
          return s.WithContext("updating entity " + std::to_string(index) +
                               " (" + e->fields->serializer()->name + ")");
        }
        ++counters_.updated;
        if (report) sink_->OnEntityUpdated(tick, e->ref(), changes_);
      }
    } else {
      // Leave, and delete when bit 1 is set.
      if (e == nullptr) continue;
      if (e->active) {
        e->active = false;
        ++counters_.left;
        if (sink_ != nullptr) sink_->OnEntityLeft(tick, e->ref());
      }
      if (cmd & 2) Delete(e, tick);
    }
  }
  if (r.overflowed()) {
    return Status::Corrupt("entity data runs past the end of the message");
  }
  return Status::Ok();
}

}  // namespace gem
