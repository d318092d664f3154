// IndexWriter's keyframes (index_writer.h, keyframe_builder.h): built from
// each entity's sealed chunks on ChangeStore::WriteAll's sealing thread,
// inserted on the writer's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "indexer/index_writer.h"

namespace gem::index {

Status IndexWriter::WriteChangesAndKeyframes(Insert* chunk, double tick_interval) {
  if (keyframe_seconds_ <= 0) return changes_.WriteAll(chunk);
  // Game seconds to ticks; a replay that names no rate counts 30 a second.
  const double rate = tick_interval > 0 ? 1.0 / tick_interval : 30.0;
  KeyframeSettings settings;
  settings.interval = std::max<int64_t>(1, std::llround(keyframe_seconds_ * rate));
  // Every row's key must fit (keyframe_codec.h): a replay of more than
  // 2^24 intervals gets longer ones.
  const int64_t span = std::max<int64_t>(max_tick_, 0) + 2;
  const int64_t slots = (int64_t{1} << kKeyframeSlotBits) - 2;
  if (span / settings.interval >= slots) settings.interval = span / slots + 1;
  settings.max_logged = keyframe_max_logged_;
  stats_.keyframe_interval = settings.interval;
  Insert insert;
  GEM_RETURN_IF_ERROR(
      insert.Prepare(db_, "keyframes(key, tick, first_entity, last_entity, data)", 5));
  creation_states_.resize(std::max(creation_states_.size(), entities_.size()));
  GEM_RETURN_IF_ERROR(creation_spill_.Flush());
  const uint64_t with_changes = std::min<uint64_t>(changes_.entities(), entities_.size());
  KeyframeBuilder sealing(settings), here(settings);
  auto build = [&](KeyframeBuilder* b, uint64_t id, std::span<const ChunkView> chunks,
                   std::vector<KeyframeRow>* rows) {
    if (id == 0 || id >= entities_.size()) return Status::Ok();  // ids start at 1
    const EntityRow& e = entities_[id];
    const int64_t end = e.deleted_tick == kNoTick ? max_tick_ + 1 : e.deleted_tick;
    // Its creation state, back from the spill (pread: both threads read).
    const SpilledState& at = creation_states_[id];
    std::string state(at.size, '\0');
    if (at.size > 0) GEM_RETURN_IF_ERROR(creation_spill_.Read(at.offset, at.size, state.data()));
    if (!b->Build(e.created_tick, end, state, chunks, rows)) {
      return Status::Corrupt("keyframes: entity " + std::to_string(id) +
                             ": its own chunks do not decode (an indexer bug)");
    }
    return Status::Ok();
  };
  // Rows come entity by entity, ascending; each interval (slot) fills a
  // block of its own, closed once its rows reach kKeyframeBlockBytes.
  // Blocks are built on the sealing thread and inserted here, each after
  // the changes of the entity whose row closed it: the file's order of
  // inserts, and so its bytes, do not depend on the threads' timing.
  // This thread compresses them: on the sealing one, zstd made that
  // thread the slower (10-minute synthetic replay: the changes' finish
  // 0.052 s with zstd here, 0.068 s there); sharing it by how far this
  // thread lagged behind gained nothing measurable.
  struct ClosedBlock {
    uint64_t closed_by;  // the entity whose row closed it
    int64_t key, tick, first, last;
    KeyframeBlockWriter rows;  // compressed here, into blob
  };
  std::mutex closed_mu;
  std::deque<ClosedBlock> closed;
  std::map<int64_t, KeyframeBlockWriter> open;  // by slot
  KeyframeCompressor compressor;
  std::string blob;
  uint64_t blocks = 0, block_bytes = 0;
  auto close_block = [&](uint64_t by, int64_t slot, KeyframeBlockWriter* b) {
    ClosedBlock c;
    c.closed_by = by;
    c.tick = (slot - 1) * settings.interval;  // KeyframeSlot's inverse
    c.first = b->first_entity();
    c.last = b->last_entity();
    if (!KeyframeBlockKey(slot, c.first, &c.key)) {
      return Status::InvalidArgument("keyframes: entity " + std::to_string(c.first) + " tick " +
                                     std::to_string(c.tick) + " has no block key");
    }
    c.rows = std::move(*b);
    *b = KeyframeBlockWriter();
    std::lock_guard<std::mutex> lock(closed_mu);
    closed.push_back(std::move(c));
    return Status::Ok();
  };
  // Inserts the blocks closed by entities up to `through`.
  auto insert_closed = [&](uint64_t through) {
    for (;;) {
      ClosedBlock c;
      {
        std::lock_guard<std::mutex> lock(closed_mu);
        if (closed.empty() || closed.front().closed_by > through) return Status::Ok();
        c = std::move(closed.front());
        closed.pop_front();
      }
      if (!c.rows.Finish(&compressor, &blob)) {
        return Status::IoError("keyframes: zstd failed on the block of tick " +
                               std::to_string(c.tick));
      }
      ++blocks;
      block_bytes += blob.size();
      GEM_RETURN_IF_ERROR(insert.one()
                              .Int(1, c.key)
                              .Int(2, c.tick)
                              .Int(3, c.first)
                              .Int(4, c.last)
                              .Blob(5, blob)
                              .Run());
    }
  };
  auto add_rows = [&](uint64_t id, std::vector<KeyframeRow>* rows) {
    for (const KeyframeRow& r : *rows) {
      const int64_t slot = KeyframeSlot(r.tick, settings.interval);
      KeyframeBlockWriter& b = open[slot];
      // A block's body stays within what readers take (kMaxKeyframeBody):
      // a row that would not fit even alone is refused.
      if (r.data.size() > kMaxKeyframeBody / 2) {
        return Status::InvalidArgument("keyframes: entity " + std::to_string(id) + " tick " +
                                       std::to_string(r.tick) + ": its row takes " +
                                       std::to_string(r.data.size()) + " bytes, more than " +
                                       std::to_string(kMaxKeyframeBody / 2) + " (a block's limit)");
      }
      if (!b.empty() && b.row_bytes() + r.data.size() > kMaxKeyframeBody / 2) {
        GEM_RETURN_IF_ERROR(close_block(id, slot, &b));
      }
      if (!b.Add(static_cast<int64_t>(id), r.data)) {
        return Status::Corrupt("keyframes: entity " + std::to_string(id) +
                               " comes after a later one (an indexer bug)");
      }
      if (b.row_bytes() >= kKeyframeBlockBytes || b.rows() >= kMaxKeyframeBlockRows) {
        GEM_RETURN_IF_ERROR(close_block(id, slot, &b));
      }
    }
    rows->clear();
    return Status::Ok();
  };
  std::vector<KeyframeRow> sealing_rows;
  ChangeStore::WriteHooks hooks;
  hooks.sealed = [&](uint64_t id, std::span<const ChunkView> chunks) {
    if (id >= with_changes) return Status::Ok();
    GEM_RETURN_IF_ERROR(build(&sealing, id, chunks, &sealing_rows));
    return add_rows(id, &sealing_rows);
  };
  hooks.written = [&](uint64_t id) { return insert_closed(id); };
  GEM_RETURN_IF_ERROR(changes_.WriteAll(chunk, hooks));
  // The sealing thread is done: the rest is this thread's.
  std::vector<KeyframeRow> rows;
  for (uint64_t id = std::max<uint64_t>(with_changes, 1); id < entities_.size(); ++id) {
    GEM_RETURN_IF_ERROR(build(&here, id, {}, &rows));
    GEM_RETURN_IF_ERROR(add_rows(id, &rows));
  }
  for (auto& [slot, b] : open) {
    if (!b.empty()) GEM_RETURN_IF_ERROR(close_block(entities_.size(), slot, &b));
  }
  GEM_RETURN_IF_ERROR(insert_closed(UINT64_MAX));
  KeyframeTotals& t = stats_.keyframes;
  for (const KeyframeTotals* p : {&sealing.totals(), &here.totals()}) {
    t.rows += p->rows;
    t.bytes += p->bytes;
    t.state_values += p->state_values;
    t.logged_changes += p->logged_changes;
    t.sought_fields += p->sought_fields;
  }
  t.blocks = blocks;
  t.block_bytes = block_bytes;
  insert.Finalize();
  return Status::Ok();
}

}  // namespace gem::index
