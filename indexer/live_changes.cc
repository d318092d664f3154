#include "indexer/live_changes.h"

namespace gem::index {

void LiveChanges::Add(uint64_t entity, std::span<const HeldChange> changes,
                      std::string_view arena) {
  EntityChunks& chunks = entities_[entity];
  for (const HeldChange& held : changes) {
    if (held.field >= chunks.slot.size()) chunks.slot.resize(held.field + 1, 0);
    if (chunks.slot[held.field] == 0) {
      chunks.chunks.emplace_back();
      chunks.field_of.push_back(held.field);
      chunks.slot[held.field] = static_cast<uint32_t>(chunks.chunks.size());
    }
    Chunk& chunk = chunks.chunks[chunks.slot[held.field] - 1];
    const Value value = held.Get(arena);
    if (!chunk.writer.empty() &&
        (!chunk.writer.Accepts(value) || chunk.writer.count() >= max_per_chunk_ ||
         chunk.writer.bytes() >= max_chunk_bytes_)) {
      Close(entity, held.field, &chunk);
    }
    if (chunk.writer.empty() && quantizers_ != nullptr) {
      chunk.writer.SetQuantizer(quantizers_->Get(held.quantizer));
    }
    chunk.writer.Add(held.tick, value);
    if (!chunk.dirty) {
      chunk.dirty = true;
      dirty_.emplace_back(entity, held.field);
    }
  }
}

void LiveChanges::Close(uint64_t entity, uint32_t field, Chunk* chunk) {
  Closed c{entity, field, chunk->seq, chunk->writer.first_tick(), chunk->writer.last_tick(),
           chunk->writer.count(), std::string()};
  chunk->writer.Finish(&c.data);
  closed_.push_back(std::move(c));
  ++chunk->seq;
  // Its row is written from closed_; the next chunk is dirty once it has
  // a change (Add marks it).
}

void LiveChanges::CloseEntity(uint64_t entity) {
  auto it = entities_.find(entity);
  if (it == entities_.end()) return;
  EntityChunks& chunks = it->second;
  for (size_t i = 0; i < chunks.chunks.size(); ++i) {
    if (!chunks.chunks[i].writer.empty()) Close(entity, chunks.field_of[i], &chunks.chunks[i]);
  }
  entities_.erase(it);
}

Status LiveChanges::Write(Insert* replace) {
  Stmt& one = replace->one();
  for (const Closed& c : closed_) {
    one.Int(1, static_cast<int64_t>(c.entity))
        .Int(2, c.field)
        .Int(3, c.start_tick)
        .Int(4, c.seq)
        .Int(5, c.end_tick)
        .Int(6, c.count)
        .Blob(7, c.data);
    GEM_RETURN_IF_ERROR(one.Run());
    ++rows_written_;
  }
  closed_.clear();
  for (const auto& [entity, field] : dirty_) {
    auto e = entities_.find(entity);
    if (e == entities_.end()) continue;  // gone: its chunks were closed
    Chunk* found = e->second.Find(field);
    if (found == nullptr) continue;
    Chunk& chunk = *found;
    chunk.dirty = false;
    if (chunk.writer.empty()) continue;  // closed after its change
    // The open chunk as it stands, encoded from a copy: the writer goes on.
    ChunkWriter copy = chunk.writer;
    blob_.clear();
    copy.Finish(&blob_);
    one.Int(1, static_cast<int64_t>(entity))
        .Int(2, field)
        .Int(3, chunk.writer.first_tick())
        .Int(4, chunk.seq)
        .Int(5, chunk.writer.last_tick())
        .Int(6, chunk.writer.count())
        .Blob(7, blob_);
    GEM_RETURN_IF_ERROR(one.Run());
    ++rows_written_;
  }
  dirty_.clear();
  return Status::Ok();
}

}  // namespace gem::index
