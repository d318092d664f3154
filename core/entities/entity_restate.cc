// EntityManager's restatements: a full packet decoded beside the live
// entities (DecodeSnapshot), and the held state made a full packet's
// (Restate at a split recording's join, Refresh after a decode fault).
#include <vector>

#include "core/entities/change_collector.h"
#include "core/entities/entities.h"

namespace gem {

Status EntityManager::DecodeSnapshot(const PacketEntities& msg,
                                     std::vector<SnapshotEntity>* out) {
  out->clear();
  BitReader r(msg.data, msg.size);
  int64_t index = -1;
  const int32_t updates = msg.updated_entries;
  if (updates < 0 || static_cast<uint64_t>(updates) > msg.size * 8 + 1) {
    return Status::Corrupt("full packet claims " + std::to_string(updates) + " entities in " +
                           std::to_string(msg.size) + " bytes");
  }
  for (int32_t n = 0; n < updates; ++n) {
    index += static_cast<int64_t>(r.ReadUBitVar()) + 1;
    if (r.overflowed()) return Status::Corrupt("full packet's entity list runs past its end");
    if (index >= kMaxEntities) {
      return Status::Corrupt("full packet's entity index " + std::to_string(index) +
                             " is out of range");
    }
    const uint32_t cmd = r.ReadBits(2);
    if (cmd != 2) {
      // Only creates restate an entity; a leave or delete in a full packet
      // carries nothing to compare.
      if ((cmd & 1) == 0) {
        return Status::Corrupt("full packet updates entity " + std::to_string(index) +
                               " instead of restating it");
      }
      continue;
    }
    CreateHeader h;
    GEM_RETURN_IF_ERROR(ReadCreateHeader(&r, index, &h));
    SnapshotEntity e;
    e.index = static_cast<int32_t>(index);
    e.class_id = h.class_id;
    e.serial = h.serial;
    e.fields = h.fields;
    ClassFields* fields = h.fields;
    if (h.class_state->has_baseline) e.state = h.class_state->base_state;
    Status s = ReadFields(&r, fields, &e.state, nullptr);
    if (!s.ok()) {
      return s.WithContext("restating entity " + std::to_string(index) + " (" +
                           fields->serializer()->name + ") in a full packet");
    }
    out->push_back(std::move(e));
  }
  if (r.overflowed()) return Status::Corrupt("full packet runs past the end of its message");
  return CheckPacketEnd(&r);
}

size_t EntityManager::ReplaceState(Entity* e, const FieldState& state, const TickInfo& tick,
                                   bool whole) {
  const FieldLayout& layout = e->fields->layout();
  replace_before_.clear();
  replace_after_.clear();
  ChangeCollector old_values(&replace_before_), new_values(&replace_after_);
  e->state.VisitAll(layout, &old_values);
  state.VisitAll(layout, &new_values);
  changes_.clear();
  replace_by_id_.clear();
  for (const FieldChange& c : replace_before_) {
    if (c.field_id >= replace_by_id_.size()) replace_by_id_.resize(c.field_id + 1, nullptr);
    replace_by_id_[c.field_id] = &c;
  }
  for (const FieldChange& c : replace_after_) {
    const FieldChange* old = c.field_id < replace_by_id_.size() ? replace_by_id_[c.field_id]
                                                                : nullptr;
    if (old != nullptr) replace_by_id_[c.field_id] = nullptr;  // seen
    if (whole || old == nullptr || !old->value.SameAs(c.value)) changes_.push_back(c);
  }
  for (const FieldChange& c : replace_before_) {
    if (c.field_id < replace_by_id_.size() && replace_by_id_[c.field_id] != nullptr) {
      changes_.push_back({c.field_id, Value::None()});
    }
  }
  // The held state becomes the new one once compared (the old values'
  // strings point into it); copied, not moved: the changes' strings point
  // into `state`.
  e->state = state;
  e->active = true;
  if (!changes_.empty() && sink_ != nullptr && report_updates_) {
    sink_->OnEntityUpdated(tick, e->ref(), changes_);
  }
  return changes_.size();
}

Status EntityManager::Restate(const PacketEntities& msg, const TickInfo& tick) {
  restate_next_ = false;
  restated_ = RestateCounts();
  state_server_tick_ = msg.server_tick;
  GEM_RETURN_IF_ERROR(DecodeSnapshot(msg, &restatement_));
  ApplyRestatement(tick);
  return Status::Ok();
}

void EntityManager::ApplyRestatement(const TickInfo& tick) {
  std::vector<int32_t> at(kMaxEntities, -1);  // index -> restatement_ position
  for (size_t i = 0; i < restatement_.size(); ++i) {
    at[restatement_[i].index] = static_cast<int32_t>(i);
  }
  for (int32_t index = 0; index < kMaxEntities; ++index) {
    Entity* e = entities_[index];
    if (e == nullptr) continue;
    const int32_t i = at[index];
    if (i >= 0 && restatement_[i].serial == e->serial &&
        restatement_[i].class_id == e->class_id) {
      continue;
    }
    Delete(e, tick);
    ++restated_.deleted;
  }
  for (SnapshotEntity& s : restatement_) {
    Entity* e = entities_[s.index];
    if (e != nullptr) {
      // Kept: report what differs (all of a misread one).
      const size_t changed = ReplaceState(e, s.state, tick, e->misread);
      if (changed > 0 && sink_ != nullptr && report_updates_) ++counters_.updated;
      restated_.changed_values += changed;
      ++restated_.kept;
      continue;
    }
    e = NewEntity();
    e->index = s.index;
    e->serial = s.serial;
    e->class_id = s.class_id;
    e->lifetime = next_lifetime_++;
    e->active = true;
    e->stale = e->misread = false;
    e->fields = mutable_class_fields(s.class_id);
    e->state = std::move(s.state);
    entities_[s.index] = e;
    ++live_;
    ++counters_.created;
    ++restated_.created;
    if (sink_ != nullptr) {
      changes_.clear();
      if (report_created_state_) {
        ChangeCollector all(&changes_);
        e->state.VisitAll(e->fields->layout(), &all);
      }
      sink_->OnEntityCreated(tick, e->ref(), changes_);
    }
  }
  restatement_.clear();
  CloseFaults(tick);
}

}  // namespace gem
