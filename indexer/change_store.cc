#include "indexer/change_store.h"

#include <algorithm>
#include <memory>
#include <atomic>
#include <cstring>
#include <thread>

#include "indexer/thread_cpu.h"

namespace gem::index {
namespace {

constexpr size_t kBlockSize = 4u << 20;
// kMaxChunkBytes (change_store.h): a chunk closes before its row outgrows what SQLite keeps on a 4 KiB
// b-tree page of a WITHOUT ROWID table (1002 bytes of payload, key columns
// and record header included, about 25 bytes): a longer row spills into
// an overflow page that is mostly empty. The check comes before a value
// is added, so the cap leaves room for one more value (a vector: 21
// bytes); only a long string can still spill.

// A writer keeps its buffers' capacity from chunk to chunk, which saves a
// field that changes every tick or so a dozen reallocations a chunk. A
// chunk that took longer than this to fill gives its buffers back when it
// closes: otherwise every field of a long-lived entity ends up holding
// its fullest chunk's capacity, mostly empty, and memory grows with the
// match's length (a 72-minute Deadlock match: 10.5 MB of writers'
// capacity for 4.7 MB of changes at the end of the parse; 7.7 MB with
// this rule, 6.3 MB at 256 ticks, which cost the 10-minute Dota index
// 0.38% more instructions where this costs 0.15%).
constexpr int64_t kSlowChunkTicks = 1024;

}  // namespace

const char* ChangeStore::Store(const std::string& blob) {
  if (blob.size() > kBlockSize / 4) {
    // A big blob gets a block of its own; the current block stays open.
    big_.push_back(std::make_unique<char[]>(blob.size()));
    std::memcpy(big_.back().get(), blob.data(), blob.size());
    return big_.back().get();
  }
  if (blocks_.empty() || block_used_ + blob.size() > block_size_) {
    blocks_.push_back(std::make_unique<char[]>(kBlockSize));
    block_used_ = 0;
    block_size_ = kBlockSize;
  }
  char* at = blocks_.back().get() + block_used_;
  std::memcpy(at, blob.data(), blob.size());
  block_used_ += blob.size();
  return at;
}

ChangeStore::Done ChangeStore::FinishChunk(uint32_t field, Open* open, std::string* out) {
  Done d;
  d.field = field;
  d.seq = open->next_seq++;
  d.start_tick = open->writer.first_tick();
  d.end_tick = open->writer.last_tick();
  d.count = open->writer.count();
  held_ -= d.count;
  const size_t before = out->size();
  open->writer.Finish(out);
  d.size = static_cast<uint32_t>(out->size() - before);
  d.data = nullptr;
  blob_bytes_ += d.size;
  ++chunks_;
  return d;
}

void ChangeStore::Close(uint64_t entity, uint32_t field, Open* open) {
  scratch_.clear();
  Done d = FinishChunk(field, open, &scratch_);
  if (d.end_tick - d.start_tick > kSlowChunkTicks) open->writer.ReleaseMemory();
  const uint64_t record = sizeof(SpillHeader) + scratch_.size();
  if (spill_.is_open() && record < (uint64_t{1} << kSpillLengthBits)) {
    const SpillHeader h{d.field, d.seq, d.count, d.size, d.start_tick, d.end_tick};
    const uint64_t at =
        spill_.Append(std::string_view(reinterpret_cast<const char*>(&h), sizeof h));
    spill_.Append(scratch_);
    std::vector<uint64_t>& spilled = open_[entity]->spilled;
    spilled.push_back(at << kSpillLengthBits | record);
    if (spilled.size() >= kWordsPerRun) SpillWords(entity, open_[entity].get());
    return;
  }
  d.data = Store(scratch_);  // no spill, or a chunk too long for one word
  open_[entity]->done.push_back(d);
}

Value HeldChange::Get(std::string_view arena) const {
  Value value;
  value.kind = kind;
  value.count = count;
  if (kind == ValueKind::kString) {
    value.s = arena.substr(s.offset, s.size);
  } else {
    std::memcpy(value.v, v, sizeof v);
  }
  return value;
}

void ChangeStore::AddSlow(uint64_t entity, std::span<const HeldChange> changes, bool has_strings,
                          std::string_view arena) {
  EntityChunks& chunks = ChunksOf(entity);
  if (chunks.buffer.capacity() == 0) chunks.buffer.reserve(kBufferedPerEntity);
  while (!changes.empty()) {
    const size_t at = chunks.buffer.size();
    const size_t n = std::min(changes.size(), kBufferedPerEntity - at);
    chunks.buffer.insert(chunks.buffer.end(), changes.begin(), changes.begin() + n);
    if (has_strings) {
      for (size_t i = at; i < at + n; ++i) {
        HeldChange& held = chunks.buffer[i];
        if (held.kind != ValueKind::kString) continue;
        const std::string_view bytes = arena.substr(held.s.offset, held.s.size);
        held.s.offset = static_cast<uint32_t>(chunks.strings.size());
        chunks.strings.append(bytes);
      }
    }
    changes_ += n;
    changes = changes.subspan(n);
    if (chunks.buffer.size() >= kBufferedPerEntity) {
      Pack(entity, &chunks);
      if (held_ > held_budget_) Trim();
    }
  }
}

void ChangeStore::Trim() {
  // Held changes by the fullness of their chunk, then the fullness from
  // which on closing frees half of them: the fullest chunks would close
  // soonest anyway, so the fewest rows are added.
  held_by_fullness_.assign(max_per_chunk_ + 1, 0);
  for (const std::unique_ptr<EntityChunks>& chunks : open_) {
    if (chunks == nullptr) continue;
    for (const Open& open : chunks->open) {
      const uint32_t n = std::min(open.writer.count(), max_per_chunk_);
      held_by_fullness_[n] += open.writer.count();
    }
  }
  uint32_t from = max_per_chunk_;
  for (uint64_t freed = 0; from > 1; --from) {
    freed += held_by_fullness_[from];
    if (freed >= held_ / 2) break;
  }
  for (uint64_t entity = 0; entity < open_.size(); ++entity) {
    if (open_[entity] == nullptr) continue;
    EntityChunks& chunks = *open_[entity];
    for (size_t i = 0; i < chunks.open.size(); ++i) {
      if (chunks.open[i].writer.empty() || chunks.open[i].writer.count() < from) continue;
      Close(entity, chunks.field_of[i], &chunks.open[i]);
      chunks.open[i].writer = ChunkWriter();
      chunks.open[i].writer.ReleaseMemory();  // its buffers' capacity too
    }
  }
  ++trims_;
}

void ChangeStore::Pack(uint64_t entity, EntityChunks* chunks) {
  const std::vector<HeldChange>& buffer = chunks->buffer;
  // Grouped by writer with a counting sort: linear, allocation-free once
  // the scratch has grown, and stable (each field's changes stay in tick
  // order).
  writer_of_.resize(buffer.size());
  for (size_t i = 0; i < buffer.size(); ++i) {
    const uint32_t field = buffer[i].field;
    if (field >= chunks->slot.size()) chunks->slot.resize(field + 1, 0);
    if (chunks->slot[field] == 0) {
      chunks->open.emplace_back();
      chunks->field_of.push_back(field);
      chunks->slot[field] = static_cast<uint32_t>(chunks->open.size());
    }
    writer_of_[i] = chunks->slot[field] - 1;
  }
  held_ += buffer.size();
  peak_held_ = std::max(peak_held_, held_);
  starts_.assign(chunks->open.size() + 1, 0);
  for (uint32_t w : writer_of_) ++starts_[w + 1];
  for (size_t w = 1; w < starts_.size(); ++w) starts_[w] += starts_[w - 1];
  order_.resize(buffer.size());
  for (uint32_t i = 0; i < buffer.size(); ++i) order_[starts_[writer_of_[i]]++] = i;

  for (uint32_t i : order_) {
    const HeldChange& held = buffer[i];
    Open* open = &chunks->open[writer_of_[i]];
    const Value value = held.Get(chunks->strings);
    if (!open->writer.empty() &&
        (!open->writer.Accepts(value) || open->writer.count() >= max_per_chunk_ ||
         open->writer.bytes() >= kMaxChunkBytes)) {
      Close(entity, held.field, open);
    }
    if (open->writer.empty() && quantizers_ != nullptr) {
      open->writer.SetQuantizer(quantizers_->Get(held.quantizer));
    }
    open->writer.Add(held.tick, value);
  }
  chunks->buffer.clear();
  chunks->strings.clear();
}

uint64_t ChangeStore::writer_heap_bytes() const {
  uint64_t bytes = 0;
  for (const std::unique_ptr<EntityChunks>& chunks : open_) {
    if (chunks == nullptr) continue;
    for (const Open& open : chunks->open) bytes += open.writer.heap_bytes();
  }
  return bytes;
}

ChangeStore::EntityChunks& ChangeStore::ChunksOf(uint64_t entity) {
  if (entity >= open_.size()) {
    open_.resize(entity + 1);
    runs_.resize(entity + 1);
  }
  if (open_[entity] == nullptr) open_[entity] = std::make_unique<EntityChunks>();
  return *open_[entity];
}

void ChangeStore::CloseEntity(uint64_t entity) {
  if (entity >= open_.size() || open_[entity] == nullptr) return;
  EntityChunks& chunks = *open_[entity];
  CloseChunks(&chunks, entity);
  // All its chunks in the spill: their words go there too, and the rest.
  if (spill_.is_open() && chunks.done.empty()) {
    SpillWords(entity, &chunks);
    open_[entity].reset();
  }
}

void ChangeStore::SpillWords(uint64_t entity, EntityChunks* chunks) {
  if (chunks->spilled.empty()) return;
  WordsRun& newest = runs_[entity];
  const RunHeader header{newest.at, newest.count, 0};
  newest.at = spill_.Append(std::string_view(reinterpret_cast<const char*>(&header), sizeof header));
  spill_.Append(std::string_view(reinterpret_cast<const char*>(chunks->spilled.data()),
                                 chunks->spilled.size() * 8));
  newest.count = static_cast<uint32_t>(chunks->spilled.size());  // at most kWordsPerRun
  chunks->spilled.clear();
}

void ChangeStore::CloseChunks(EntityChunks* chunks_in, uint64_t entity) {
  EntityChunks& chunks = *chunks_in;
  Pack(entity, &chunks);
  for (size_t i = 0; i < chunks.open.size(); ++i) {
    if (!chunks.open[i].writer.empty()) Close(entity, chunks.field_of[i], &chunks.open[i]);
  }
  FreeGathering(&chunks);
}

void ChangeStore::FreeGathering(EntityChunks* chunks_in) {
  EntityChunks& chunks = *chunks_in;
  EntityChunks().open.swap(chunks.open);
  std::vector<HeldChange>().swap(chunks.buffer);
  std::string().swap(chunks.strings);
  std::vector<uint32_t>().swap(chunks.slot);
  std::vector<uint32_t>().swap(chunks.field_of);
}

Status ChangeStore::ReadBack(EntityChunks* chunks, WordsRun* newest) {
  // The entity's chunks lie in the file in the order they closed (offsets
  // increasing): runs of them, touching or near, are read in one call, up
  // to kMaxRun bytes (a run as long as the entity grew with the match: a
  // hero's 1.6 MB at 72 minutes, read through a buffer of its own).
  constexpr uint64_t kGap = 4096;
  constexpr uint64_t kMaxRun = 64u << 10;
  const uint64_t mask = (uint64_t{1} << kSpillLengthBits) - 1;
  if (newest->count > 0) {
    // Its words in the spill come first, oldest run first; those still in
    // memory closed after them. The runs are read newest first, each in
    // one call (its header names the run before it, and its length).
    std::vector<uint64_t> later = std::move(chunks->spilled);
    std::vector<uint64_t> runs;  // newest first: its header, then its words
    size_t words = 0;
    for (WordsRun run = *newest; run.count > 0;) {
      if (run.count > kWordsPerRun || words + run.count > chunks_) {
        return Status::IoError("a run of chunk words in the temporary file does not read back");
      }
      const size_t at = runs.size();
      runs.resize(at + 2 + run.count);  // a RunHeader is two words
      GEM_RETURN_IF_ERROR(spill_.Read(run.at, (2 + size_t{run.count}) * 8,
                                      reinterpret_cast<char*>(runs.data() + at)));
      RunHeader header;
      std::memcpy(&header, runs.data() + at, sizeof header);
      words += run.count;
      run = WordsRun{header.prev_at, header.prev_count};
    }
    chunks->spilled.resize(words + later.size());
    // Each run's words end where the newer run's begin.
    size_t end = words;
    uint32_t count = newest->count;
    for (size_t at = 0; at < runs.size();) {
      RunHeader header;
      std::memcpy(&header, runs.data() + at, sizeof header);
      std::copy_n(runs.data() + at + 2, count, chunks->spilled.data() + end - count);
      end -= count;
      at += 2 + count;
      count = header.prev_count;
    }
    std::copy(later.begin(), later.end(), chunks->spilled.begin() + static_cast<ptrdiff_t>(words));
    *newest = WordsRun();
  }
  const std::vector<uint64_t>& spilled = chunks->spilled;
  uint64_t total = 0;
  for (uint64_t r : spilled) total += (r & mask) - sizeof(SpillHeader);
  size_t at = chunks->bytes.size();  // after what Seal closed into it
  chunks->bytes.resize(at + total);
  chunks->done.reserve(chunks->done.size() + spilled.size());
  size_t i = 0;
  std::string run;
  while (i < spilled.size()) {
    const uint64_t first = spilled[i] >> kSpillLengthBits;
    uint64_t end = first + (spilled[i] & mask);
    size_t j = i + 1;
    for (; j < spilled.size(); ++j) {
      const uint64_t next = spilled[j] >> kSpillLengthBits;
      const uint64_t next_end = next + (spilled[j] & mask);
      if (next < end || next - end > kGap || next_end - first > kMaxRun) break;
      end = next_end;
    }
    run.resize(end - first);
    GEM_RETURN_IF_ERROR(spill_.Read(first, run.size(), run.data()));
    for (size_t k = i; k < j; ++k) {
      const char* record = run.data() + ((spilled[k] >> kSpillLengthBits) - first);
      SpillHeader h;
      std::memcpy(&h, record, sizeof h);
      if (h.size != (spilled[k] & mask) - sizeof h) {
        return Status::IoError("a chunk in the temporary file does not read back whole");
      }
      std::memcpy(chunks->bytes.data() + at, record + sizeof h, h.size);
      chunks->done.push_back(
          Done{h.field, h.seq, h.start_tick, h.end_tick, h.count, h.size, chunks->bytes.data() + at});
      at += h.size;
    }
    i = j;
  }
  std::vector<uint64_t>().swap(chunks->spilled);
  return Status::Ok();
}

Status ChangeStore::Seal(uint64_t entity) {
  EntityChunks& chunks = ChunksOf(entity);
  // Its open chunks close straight into `bytes`, not through the spill:
  // they are read at once, and the spill's round trip (append, write,
  // read back) cost the sealing thread 64-70 ms where it now takes 60-65
  // (the 10-minute replay).
  Pack(entity, &chunks);
  const size_t first_tail = chunks.done.size();
  tail_offsets_.clear();
  for (size_t i = 0; i < chunks.open.size(); ++i) {
    if (chunks.open[i].writer.empty()) continue;
    tail_offsets_.push_back(chunks.bytes.size());
    chunks.done.push_back(FinishChunk(chunks.field_of[i], &chunks.open[i], &chunks.bytes));
  }
  FreeGathering(&chunks);
  if (!chunks.spilled.empty() || runs_[entity].count > 0) {
    // Its earlier chunks: out of the spill's buffer to the file, then back.
    GEM_RETURN_IF_ERROR(spill_.Flush());
    GEM_RETURN_IF_ERROR(ReadBack(&chunks, &runs_[entity]));
  }
  // `bytes` moves no more: the open chunks' rows point into it.
  for (size_t k = 0; k < tail_offsets_.size(); ++k) {
    chunks.done[first_tail + k].data = chunks.bytes.data() + tail_offsets_[k];
  }
  // Key order: by field, a field's chunks by seq (the order they closed).
  std::sort(chunks.done.begin(), chunks.done.end(), [](const Done& a, const Done& b) {
    return a.field != b.field ? a.field < b.field : a.seq < b.seq;
  });
  return Status::Ok();
}

Status ChangeStore::WriteAll(Insert* insert, const WriteHooks& hooks) {
  const uint64_t entities = open_.size();
  std::atomic<uint64_t> sealed{0};  // entities [0, sealed) are ready
  std::atomic<bool> stop{false};
  // The sealer reads spilled chunks back ahead of the writer, but no more
  // than seal_ahead_ bytes of them (`held`: read back and not yet given
  // back) past the entity the writer is on: unbounded, it held most of a
  // long match's changes at once (a 360 MB Deadlock replay: 247 MiB peak).
  std::atomic<uint64_t> writer_at{0};
  std::atomic<uint64_t> held{0};
  Status seal_status;
  std::thread sealer([&] {
    std::vector<ChunkView> views;
    for (uint64_t e = 0; e < entities && !stop.load(std::memory_order_relaxed); ++e) {
      for (uint64_t w = writer_at.load(std::memory_order_acquire);
           e > w + 1 && held.load(std::memory_order_acquire) > seal_ahead_ &&
           !stop.load(std::memory_order_relaxed);
           w = writer_at.load(std::memory_order_acquire)) {
        writer_at.wait(w, std::memory_order_acquire);
      }
      Status s = Seal(e);
      const uint64_t bytes = open_[e]->bytes.size();
      peak_sealed_bytes_ = std::max(
          peak_sealed_bytes_, held.fetch_add(bytes, std::memory_order_release) + bytes);
      if (s.ok() && hooks.sealed) {
        views.clear();
        for (const Done& d : open_[e]->done) {
          views.push_back(
              {d.field, d.start_tick, d.end_tick, d.count, std::string_view(d.data, d.size)});
        }
        s = hooks.sealed(e, views);
      }
      if (!s.ok()) {
        seal_status = s;
        stop.store(true, std::memory_order_relaxed);
      }
      sealed.store(s.ok() ? e + 1 : entities + 1, std::memory_order_release);
      sealed.notify_one();
      if (!s.ok()) break;
    }
    seal_cpu_seconds_ = ThreadCpuSeconds();
  });
  // Rows go many to a statement run, the rest one by one.
  const size_t many = static_cast<size_t>(insert->rows_per_many());
  std::vector<std::pair<uint64_t, const Done*>> pending;
  pending.reserve(many);
  auto bind = [](Stmt* stmt, int first, uint64_t entity, const Done& d) {
    stmt->Int(first, static_cast<int64_t>(entity))
        .Int(first + 1, d.field)
        .Int(first + 2, d.start_tick)
        .Int(first + 3, d.seq)
        .Int(first + 4, d.end_tick)
        .Int(first + 5, d.count)
        .Blob(first + 6, std::string_view(d.data, d.size));
  };
  auto flush = [&]() -> Status {
    if (pending.size() == many) {
      for (size_t k = 0; k < many; ++k) {
        bind(&insert->many(), static_cast<int>(7 * k + 1), pending[k].first, *pending[k].second);
      }
      GEM_RETURN_IF_ERROR(insert->many().Run());
    } else {
      for (const auto& [entity, d] : pending) {
        bind(&insert->one(), 1, entity, *d);
        GEM_RETURN_IF_ERROR(insert->one().Run());
      }
    }
    pending.clear();
    return Status::Ok();
  };
  // Distinct key prefixes, for key_stat().
  uint64_t rows = 0, distinct[3] = {0, 0, 0};
  uint64_t freed = 0;  // entities [0, freed) gave their chunk bytes back
  Status status;
  for (uint64_t e = 0; e < entities && status.ok(); ++e) {
    writer_at.store(e, std::memory_order_release);
    writer_at.notify_one();
    for (uint64_t s = sealed.load(std::memory_order_acquire); s <= e;
         s = sealed.load(std::memory_order_acquire)) {
      sealed.wait(s, std::memory_order_acquire);
    }
    if (sealed.load(std::memory_order_acquire) > entities) break;  // the sealer failed
    // Entities whose rows SQLite has taken give their bytes back: those
    // before the first row still pending. (Waiting for no row pending at
    // all kept big entities' bytes, 1.6 MB each at 72 minutes, until a
    // statement's worth of rows happened to end with an entity.)
    for (; freed < e && (pending.empty() || freed < pending.front().first); ++freed) {
      held.fetch_sub(open_[freed]->bytes.size(), std::memory_order_release);
      open_[freed].reset();
    }
    const std::vector<Done>& done = open_[e]->done;
    for (size_t i = 0; i < done.size() && status.ok(); ++i) {
      const Done& d = done[i];
      const Done* p = i > 0 ? &done[i - 1] : nullptr;
      const bool new_field = p == nullptr || p->field != d.field;
      distinct[0] += p == nullptr;
      distinct[1] += new_field;
      distinct[2] += new_field || p->start_tick != d.start_tick;
      ++rows;
      pending.emplace_back(e, &d);
      if (pending.size() == many) status = flush();
    }
    if (status.ok() && hooks.written) status = hooks.written(e);
  }
  if (status.ok()) status = flush();
  stop.store(true, std::memory_order_relaxed);
  writer_at.store(UINT64_MAX - 1, std::memory_order_release);  // a waiting sealer goes on
  writer_at.notify_one();
  sealer.join();
  GEM_RETURN_IF_ERROR(seal_status);
  GEM_RETURN_IF_ERROR(status);
  key_stat_.clear();
  if (rows > 0) {
    key_stat_ = std::to_string(rows);
    for (uint64_t n : distinct) key_stat_ += " " + std::to_string((rows + n - 1) / n);
    key_stat_ += " 1";
  }
  return Status::Ok();
}

}  // namespace gem::index
