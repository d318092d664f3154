// IndexWriter's intervals (interval_store.h): where they end, and the
// states that start the next, taken from the parser's own entities.
#include <algorithm>
#include <cmath>

#include "core/entities/entities.h"
#include "core/parser/parser.h"
#include "indexer/index_writer.h"

namespace gem::index {
namespace {

// Collects an entity's values as the parser holds them.
class StateCollector : public FieldState::Visitor {
 public:
  explicit StateCollector(std::vector<FieldChange>* out) : out_(out) {}
  void Visit(uint32_t field_id, const Value& value) override {
    out_->push_back({field_id, value});
  }

 private:
  std::vector<FieldChange>* out_;
};

}  // namespace

void IndexWriter::OnFrameStart(const TickInfo& t) {
  // This frame's tick N is later than every event so far: they are all in.
  const int64_t next = ticks_.Peek(t);
  if (interval_settings_.keyframes && next > next_boundary_) CloseIntervalsBefore(next);
  if (live_ != nullptr) LiveFrameStart(next);
}

void IndexWriter::OnMetadata(const ReplayMetadata& m) {
  meta_ = m;
  // (The parser's entities still hold their states: the parse has ended,
  // nothing has freed them.)
  if (interval_settings_.keyframes && max_tick_ >= next_boundary_) {
    CloseIntervalsBefore(max_tick_ + 1);
  }
}

void IndexWriter::CloseIntervalsBefore(int64_t next) {
  if (interval_ == 0) {
    // Game seconds to ticks, once the replay has said its tick rate (its
    // signon has; a replay that names none counts 30 a second).
    const double tick_interval = parser_ != nullptr ? parser_->metadata().tick_interval : 0;
    const double rate = tick_interval > 0 ? 1.0 / tick_interval : 30.0;
    interval_ = std::clamp<int64_t>(std::llround(keyframe_seconds_ * rate), 1, UINT32_MAX);
    stats_.keyframe_interval = interval_;
  }
  // Every interval ending before `next` closes (a gap in the replay's
  // ticks passes several at once: their states are the same).
  while (next > next_boundary_ && error_.ok()) {
    pipeline_.CloseInterval(next_boundary_, interval_);
    SnapshotEntities();
    next_boundary_ += interval_;
  }
}

void IndexWriter::SnapshotEntities() {
  if (parser_ == nullptr) {
    error_ = Status::InvalidArgument("keyframes need the parser (IndexWriter::SetParser)");
    return;
  }
  const EntityManager& entities = parser_->entities();
  for (size_t id = 1; id < entities_.size(); ++id) {
    const EntityRow& row = entities_[id];
    if (row.deleted_tick != kNoTick || row.class_id < 0) continue;
    const Entity* e = entities.Get(row.index);
    if (e == nullptr || e->lifetime != id || e->fields == nullptr) {
      error_ = Status::Corrupt("keyframes: entity " + std::to_string(id) + " (index " +
                               std::to_string(row.index) +
                               ") is alive in the index but not in the parser (an indexer bug)");
      return;
    }
    state_scratch_.clear();
    StateCollector collect(&state_scratch_);
    e->state.VisitAll(e->fields->layout(), &collect);
    // (Encoded on the packing thread: the parse's only copies it.)
    pipeline_.Snapshot(id, state_scratch_);
    ++stats_.snapshots;
  }
}

}  // namespace gem::index
