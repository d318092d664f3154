#include "indexer/interval_store.h"

#include <algorithm>

namespace gem::index {
namespace {

// A run that took longer than this to fill gives its writer's buffers back
// when it closes: a field that changes a few times a minute would
// otherwise keep its fullest run's capacity, mostly empty, for as long as
// the entity lives.
constexpr int64_t kSlowRunTicks = 1024;

}  // namespace

IntervalStore::IntervalStore(const IntervalSettings& settings,
                             const QuantizerRegistry* quantizers, RunPages* pages,
                             RowBlocks* rows)
    : settings_(settings),
      buffered_(std::clamp<size_t>(settings.buffered, 1, kBufferedPerEntity)),
      quantizers_(quantizers),
      pages_(pages),
      rows_(rows) {
  // Slot 0 starts before the signon's tick -1: at -E once E is known,
  // and with one interval for the whole replay at -1.
  k_ = -1;
}

IntervalStore::~IntervalStore() = default;

void IntervalStore::SetOutput(RowBuffer* out) {
  pages_->SetOutput(out);
  rows_->SetOutput(out);
}

IntervalStore::EntityData& IntervalStore::DataOf(uint64_t entity) {
  if (entity >= data_.size()) data_.resize(entity + 1);
  if (data_[entity] == nullptr) {
    data_[entity] = std::make_unique<EntityData>();
    // Entities appear in ascending id, but for a change before its create.
    if (active_.empty() || active_.back() < entity) {
      active_.push_back(entity);
    } else {
      active_.insert(std::lower_bound(active_.begin(), active_.end(), entity), entity);
    }
  }
  return *data_[entity];
}

void IntervalStore::Create(uint64_t entity) { DataOf(entity); }

void IntervalStore::Snapshot(uint64_t entity, std::string_view state) {
  EntityData& d = DataOf(entity);
  d.state.assign(state);
  d.born = false;
  d.needs_snapshot = false;
}

std::string_view IntervalStore::StateAtStart(uint64_t entity) const {
  if (entity >= data_.size() || data_[entity] == nullptr || data_[entity]->born) return {};
  return data_[entity]->state;
}

void IntervalStore::AddSlow(uint64_t entity, std::span<const HeldChange> changes,
                            bool has_strings, std::string_view arena) {
  EntityData& d = DataOf(entity);
  if (d.buffer.capacity() == 0) d.buffer.reserve(buffered_);
  while (!changes.empty()) {
    const size_t at = d.buffer.size();
    const size_t n = std::min(changes.size(), buffered_ - at);
    d.buffer.insert(d.buffer.end(), changes.begin(), changes.begin() + n);
    if (has_strings) {
      for (size_t i = at; i < at + n; ++i) {
        HeldChange& held = d.buffer[i];
        if (held.kind != ValueKind::kString) continue;
        const std::string_view bytes = arena.substr(held.s.offset, held.s.size);
        held.s.offset = static_cast<uint32_t>(d.strings.size());
        d.strings.append(bytes);
      }
    }
    stats_.changes += n;
    changes = changes.subspan(n);
    if (d.buffer.size() >= buffered_) {
      Pack(&d);
      if (held_ > settings_.held_budget) Trim();
    }
  }
}

void IntervalStore::Pack(EntityData* d) {
  std::vector<HeldChange>& buffer = d->buffer;
  if (buffer.empty()) return;
  // Grouped by field with a counting sort: linear, allocation-free once
  // the scratch has grown, and stable (each field's changes stay in tick
  // order).
  field_of_.resize(buffer.size());
  for (size_t i = 0; i < buffer.size(); ++i) {
    const uint32_t field = buffer[i].field;
    if (field >= d->slot.size()) d->slot.resize(field + 1, 0);
    if (d->slot[field] == 0) {
      d->fields.push_back(Field{field});
      d->slot[field] = static_cast<uint32_t>(d->fields.size());
    }
    field_of_[i] = d->slot[field] - 1;
  }
  starts_.assign(d->fields.size() + 1, 0);
  for (uint32_t f : field_of_) ++starts_[f + 1];
  for (size_t f = 1; f < starts_.size(); ++f) starts_[f] += starts_[f - 1];
  order_.resize(buffer.size());
  for (uint32_t i = 0; i < buffer.size(); ++i) order_[starts_[field_of_[i]]++] = i;

  const uint32_t max_logged = settings_.max_logged;
  for (uint32_t i : order_) {
    const HeldChange& c = buffer[i];
    Field& f = d->fields[field_of_[i]];
    ++f.count;
    if (f.open < 0) {
      if (f.count <= max_logged) {
        HeldChange& kept = d->small.emplace_back(c);
        if (c.kind == ValueKind::kString) {
          kept.s.offset = static_cast<uint32_t>(d->small_strings.size());
          d->small_strings.append(std::string_view(d->strings).substr(c.s.offset, c.s.size));
        }
        continue;
      }
      ToRuns(d, &f);
    }
    AddToRun(d, &f, c.tick, c.Get(d->strings), c.quantizer);
  }
  buffer.clear();
  d->strings.clear();
}

void IntervalStore::ToRuns(EntityData* d, Field* f) {
  f->open = static_cast<int32_t>(d->open.size());
  d->open.emplace_back().field = f->id;
  for (const HeldChange& c : d->small) {
    if (c.field == f->id) AddToRun(d, f, c.tick, c.Get(d->small_strings), c.quantizer);
  }
}

void IntervalStore::AddToRun(EntityData* d, Field* f, int64_t tick, const Value& value,
                             uint16_t quantizer) {
  ChunkWriter& w = d->open[static_cast<size_t>(f->open)].writer;
  if (!w.empty() && (!w.Accepts(value) || w.count() >= settings_.max_per_run ||
                     w.bytes() >= settings_.max_run_bytes)) {
    CloseRun(d, static_cast<uint32_t>(f->open));
  }
  if (w.empty() && quantizers_ != nullptr) w.SetQuantizer(quantizers_->Get(quantizer));
  w.Add(tick, value);
  stats_.peak_held = std::max(stats_.peak_held, ++held_);
}

void IntervalStore::CloseRun(EntityData* d, uint32_t index) {
  EntityData::Open& o = d->open[index];
  if (o.writer.empty()) return;
  const int64_t first = o.writer.first_tick(), last = o.writer.last_tick();
  held_ -= o.writer.count();
  run_blob_.clear();
  o.writer.Finish(&run_blob_);
  if (last - first > kSlowRunTicks) o.writer.ReleaseMemory();
  RunEntry e{o.field, RunRef{first, 0, 0, static_cast<uint32_t>(run_blob_.size())}};
  pages_->Place(run_blob_, &e.ref.page, &e.ref.offset);
  d->runs.push_back(e);
  ++stats_.runs;
}

void IntervalStore::Trim() {
  // Held changes by the fullness of their run, then the fullness from
  // which on closing frees half of them: the fullest runs would close
  // soonest anyway, so the fewest runs are added.
  const uint32_t max = settings_.max_per_run;
  held_by_fullness_.assign(max + 1, 0);
  for (uint64_t entity : active_) {
    if (entity >= data_.size() || data_[entity] == nullptr) continue;
    for (const EntityData::Open& o : data_[entity]->open) {
      held_by_fullness_[std::min(o.writer.count(), max)] += o.writer.count();
    }
  }
  uint32_t from = max;
  for (uint64_t freed = 0; from > 1; --from) {
    freed += held_by_fullness_[from];
    if (freed >= held_ / 2) break;
  }
  for (uint64_t entity : active_) {
    if (entity >= data_.size() || data_[entity] == nullptr) continue;
    EntityData& d = *data_[entity];
    for (uint32_t i = 0; i < d.open.size(); ++i) {
      if (d.open[i].writer.empty() || d.open[i].writer.count() < from) continue;
      CloseRun(&d, i);
      d.open[i].writer.ReleaseMemory();
    }
  }
  ++stats_.trims;
}

void IntervalStore::BuildRow(uint64_t entity, EntityData* d, std::string* row) {
  if (!d->born && d->needs_snapshot) {
    Fail(Status::Corrupt("keyframes: entity " + std::to_string(entity) +
                         " was alive at tick " + std::to_string(k_) +
                         " but its state there was not given (an indexer bug)"));
  }
  Pack(d);
  // A logged field whose values are of two kinds (a row logs one kind a
  // field) goes to runs, which close at each change of kind.
  std::vector<Field>& fields = d->fields;
  kinds_.assign(fields.size(), 0);  // the kind seen, + 1
  for (const HeldChange& c : d->small) {
    Field& f = fields[d->slot[c.field] - 1];
    if (f.open >= 0 || c.kind == ValueKind::kNone) continue;
    uint8_t& kind = kinds_[d->slot[c.field] - 1];
    if (kind == 0) {
      kind = static_cast<uint8_t>(static_cast<uint8_t>(c.kind) + 1);
    } else if (kind != static_cast<uint8_t>(c.kind) + 1) {
      ToRuns(d, &f);
    }
  }
  for (uint32_t i = 0; i < d->open.size(); ++i) CloseRun(d, i);
  // Each field's runs together, in the order they closed (tick order).
  std::stable_sort(d->runs.begin(), d->runs.end(),
                   [](const RunEntry& a, const RunEntry& b) { return a.field < b.field; });
  // The logged changes grouped by field, in arrival order (counting sort).
  starts_.assign(fields.size() + 1, 0);
  for (const HeldChange& c : d->small) ++starts_[d->slot[c.field]];
  for (size_t f = 1; f < starts_.size(); ++f) starts_[f] += starts_[f - 1];
  order_.resize(d->small.size());
  for (uint32_t i = 0; i < d->small.size(); ++i) {
    order_[starts_[d->slot[d->small[i].field] - 1]++] = i;
  }
  // (starts_[f] is now where field f's changes end; f's begin at f - 1's end.)
  by_field_.resize(fields.size());
  for (uint32_t i = 0; i < fields.size(); ++i) by_field_[i] = i;
  // (Fields are numbered as they first changed: mostly, not always, by id.)
  std::sort(by_field_.begin(), by_field_.end(),
            [&](uint32_t a, uint32_t b) { return fields[a].id < fields[b].id; });

  writer_.Begin(k_, d->born ? kKeyframeBorn : 0);
  if (!d->born) writer_.SetState(d->state);
  size_t run_at = 0;
  std::vector<RunRef>& refs = refs_;
  for (uint32_t fi : by_field_) {
    const Field& f = fields[fi];
    if (f.open >= 0) {
      while (run_at < d->runs.size() && d->runs[run_at].field < f.id) ++run_at;
      refs.clear();
      for (; run_at < d->runs.size() && d->runs[run_at].field == f.id; ++run_at) {
        refs.push_back(d->runs[run_at].ref);
      }
      if (!refs.empty()) writer_.AddRuns(f.id, refs);
      ++stats_.run_fields;
      continue;
    }
    const uint32_t begin = fi == 0 ? 0 : starts_[fi - 1], end = starts_[fi];
    for (uint32_t j = begin; j < end; ++j) {
      const HeldChange& c = d->small[order_[j]];
      // (The kinds were checked above: a field logged has one.)
      if (!writer_.AddLogged(f.id, c.tick, c.Get(d->small_strings))) {
        Fail(Status::Corrupt("keyframes: entity " + std::to_string(entity) + " field " +
                             std::to_string(f.id) + ": two kinds logged (an indexer bug)"));
      }
    }
    stats_.logged += end - begin;
    ++stats_.logged_fields;
  }
  writer_.Finish(row);
}

void IntervalStore::Delete(uint64_t entity) {
  if (entity >= data_.size() || data_[entity] == nullptr) return;
  std::string row;
  BuildRow(entity, data_[entity].get(), &row);
  done_.emplace_back(entity, std::move(row));
  data_[entity].reset();
}

Status IntervalStore::CloseOpen(bool last) {
  // Rows in ascending entity: the living ones' made now, the deleted
  // ones' made at their deletion.
  std::sort(done_.begin(), done_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t done_at = 0;
  std::vector<uint64_t> alive;
  alive.reserve(active_.size());
  auto emit = [&](uint64_t entity, std::string_view row) {
    if (status_.ok()) {
      Status s = rows_->Add(slot_, k_, static_cast<int64_t>(entity), row);
      if (!s.ok()) Fail(s);
    }
  };
  for (uint64_t entity : active_) {
    if (entity >= data_.size() || data_[entity] == nullptr) continue;  // deleted
    for (; done_at < done_.size() && done_[done_at].first < entity; ++done_at) {
      emit(done_[done_at].first, done_[done_at].second);
    }
    EntityData& d = *data_[entity];
    BuildRow(entity, &d, &row_);
    emit(entity, row_);
    alive.push_back(entity);
    if (last) continue;
    // The next interval: alive at its start, with the state Snapshot gives.
    d.born = false;
    d.needs_snapshot = true;
    d.state.clear();
    std::fill(d.slot.begin(), d.slot.end(), 0);
    d.fields.clear();
    d.small.clear();
    d.small_strings.clear();
    d.open.clear();
    d.runs.clear();
  }
  for (; done_at < done_.size(); ++done_at) emit(done_[done_at].first, done_[done_at].second);
  done_.clear();
  active_ = std::move(alive);
  pages_->Flush();
  if (status_.ok()) {
    Status s = rows_->Flush();
    if (!s.ok()) Fail(s);
  }
  ++stats_.intervals;
  return status_;
}

Status IntervalStore::CloseInterval(int64_t boundary, int64_t interval) {
  if (settings_.keyframes && interval_ == 0 && slot_ == 0 && interval > 0 && boundary == 0) {
    interval_ = interval;
    k_ = -interval;
  }
  if (!settings_.keyframes || interval != interval_ || boundary != k_ + interval_) {
    Fail(Status::Corrupt("keyframes: interval end " + std::to_string(boundary) +
                         " does not follow keyframe tick " + std::to_string(k_) +
                         " (an indexer bug)"));
    return status_;
  }
  GEM_RETURN_IF_ERROR(CloseOpen(false));
  ++slot_;
  k_ = boundary;
  return Status::Ok();
}

Status IntervalStore::Finish() { return CloseOpen(true); }

}  // namespace gem::index
