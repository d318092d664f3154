// ChunkSpill and the ChangeStore that uses it: bytes come back as they
// went out across buffer edges, a failed write is an error that sticks,
// and a store that spills writes the same rows as one that keeps its
// chunks in memory.
#include "indexer/chunk_spill.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/value.h"
#include "indexer/change_pipeline.h"
#include "indexer/change_store.h"
#include "indexer/sqlite_db.h"

namespace gem::index {
namespace {

std::string TempDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

TEST(ChunkSpillTest, BytesComeBackAsWritten) {
  ChunkSpill spill;
  ASSERT_TRUE(spill.Open(TempDir()).ok());
  std::mt19937 rng(3);
  std::vector<std::string> pieces;
  std::vector<uint64_t> offsets;
  // About 3 MiB in pieces of 0..2 KiB, and one larger than the buffer.
  for (int i = 0; i < 3000; ++i) {
    std::string p(rng() % 2048, '\0');
    for (char& c : p) c = static_cast<char>(rng());
    if (i == 1500) p.assign((1u << 20) + 17, 'x');
    offsets.push_back(spill.Append(p));
    pieces.push_back(std::move(p));
  }
  ASSERT_TRUE(spill.Flush().ok());
  uint64_t total = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    ASSERT_EQ(offsets[i], total) << "piece " << i;
    total += pieces[i].size();
  }
  EXPECT_EQ(spill.bytes(), total);
  for (size_t i = 0; i < pieces.size(); ++i) {
    std::string back(pieces[i].size(), '\0');
    ASSERT_TRUE(spill.Read(offsets[i], back.size(), back.data()).ok());
    EXPECT_EQ(back, pieces[i]) << "piece " << i;
  }
  char c;
  Status past = spill.Read(total, 1, &c);
  EXPECT_FALSE(past.ok());
}

TEST(ChunkSpillTest, AMissingDirectoryIsNamedInTheError) {
  ChunkSpill spill;
  Status s = spill.Open("/nonexistent/gem-spill-dir");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("/nonexistent/gem-spill-dir"), std::string::npos) << s.ToString();
  EXPECT_FALSE(spill.is_open());
}

TEST(ChunkSpillTest, AFailedWriteSticks) {
  // A file size limit stands in for a full disk (SIGXFSZ ignored, as
  // gem-index does, so the write fails with EFBIG).
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ChunkSpill spill;
  ASSERT_TRUE(spill.Open(TempDir()).ok());
  struct rlimit small = old;
  small.rlim_cur = 64 << 10;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string piece(100000, 'y');
  for (int i = 0; i < 30; ++i) spill.Append(piece);
  Status flushed = spill.Flush();
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(flushed.ok());
  EXPECT_EQ(flushed.code(), spill.status().code());
  EXPECT_NE(flushed.ToString().find("temporary chunk file"), std::string::npos)
      << flushed.ToString();
  char c;
  EXPECT_FALSE(spill.Read(0, 1, &c).ok());
}

// An in-memory database with gem's changes table; false if it fails.
bool OpenChangesDb(Db* db) {
  return db->Open(":memory:").ok() &&
         db->Exec("CREATE TABLE changes(entity, field_id, start_tick, seq, end_tick, count, data, "
                  "PRIMARY KEY(entity, field_id, start_tick, seq));")
             .ok();
}

// The store's rows, through WriteAll, into `db`'s changes table.
bool WriteRows(ChangeStore* store, Db* db) {
  Insert insert;
  if (!insert.Prepare(db, "changes(entity, field_id, start_tick, seq, end_tick, count, data)", 7)
           .ok()) {
    return false;
  }
  const bool ok = store->WriteAll(&insert).ok();
  insert.Finalize();
  return ok;
}

// Rows of the changes table, every column, in key order.
std::vector<std::string> ChangeRows(Db* db) {
  std::vector<std::string> out;
  Stmt s;
  EXPECT_TRUE(s.Prepare(db, "SELECT entity, field_id, start_tick, seq, end_tick, count, "
                            "hex(data) FROM changes ORDER BY 1, 2, 3, 4")
                  .ok());
  EXPECT_TRUE(s.ForEachRow([&](sqlite3_stmt* row_stmt) {
                 std::string row;
                 for (int i = 0; i < 7; ++i) {
                   row += reinterpret_cast<const char*>(sqlite3_column_text(row_stmt, i));
                   row += '|';
                 }
                 out.push_back(row);
               }).ok());
  return out;
}

// Many entities, fields and chunks (four changes to a chunk), a string
// field among them, some entities gone before the end.
std::vector<std::string> StoreAndWrite(bool spill, uint64_t* chunks) {
  Db db;
  EXPECT_TRUE(OpenChangesDb(&db));
  ChangeStore store(4);
  if (spill) {
    EXPECT_TRUE(store.OpenSpill(TempDir()).ok());
  }
  std::mt19937 rng(5);
  constexpr uint64_t kEntities = 40;
  for (int64_t tick = 1; tick <= 400; ++tick) {
    for (uint64_t e = 0; e < kEntities; ++e) {
      if (e % 7 == 3 && tick > 200) continue;  // closed at tick 200
      std::vector<HeldChange> held;
      std::string arena;
      bool strings = false;
      for (uint32_t f = 0; f < 6; ++f) {
        if (rng() % 3 != 0) continue;
        HeldChange h;
        if (f == 5) {
          h.Set(f, tick, Value::String("name" + std::to_string(rng() % 50)),
                QuantizerRegistry::kNone, &arena);
          strings = true;
        } else {
          h.Set(f, tick, Value::Int(static_cast<int64_t>(rng() % 1000) - 500),
                QuantizerRegistry::kNone, &arena);
        }
        held.push_back(h);
      }
      if (!held.empty()) store.Add(e, held, strings, arena);
    }
    if (tick == 200) {
      for (uint64_t e = 3; e < kEntities; e += 7) store.CloseEntity(e);
    }
  }
  Insert insert;
  EXPECT_TRUE(
      insert.Prepare(&db, "changes(entity, field_id, start_tick, seq, end_tick, count, data)", 7)
          .ok());
  EXPECT_TRUE(store.WriteAll(&insert).ok());
  EXPECT_TRUE(store.status().ok());
  insert.Finalize();
  *chunks = store.chunks();
  return ChangeRows(&db);
}

TEST(ChangeStoreSpillTest, SpilledChunksWriteTheSameRows) {
  uint64_t in_memory_chunks = 0, spilled_chunks = 0;
  std::vector<std::string> in_memory = StoreAndWrite(false, &in_memory_chunks);
  std::vector<std::string> spilled = StoreAndWrite(true, &spilled_chunks);
  ASSERT_GT(in_memory_chunks, 1000u);  // many chunks, so the spill holds many runs
  // Each entity closes enough chunks for its words to leave memory in
  // runs (ChangeStore::kWordsPerRun at a time), several of them.
  ASSERT_GT(in_memory_chunks / 40, 2 * ChangeStore::kWordsPerRun);
  EXPECT_EQ(in_memory.size(), in_memory_chunks);
  EXPECT_EQ(spilled_chunks, in_memory_chunks);
  ASSERT_EQ(spilled.size(), in_memory.size());
  for (size_t i = 0; i < spilled.size(); ++i) ASSERT_EQ(spilled[i], in_memory[i]) << "row " << i;
}

// Calls `each` with every change of the chunk in `row` (its start tick in
// column `start_col`, its bytes in `data_col`); false when it does not
// decode whole.
bool ForEachChunkChange(sqlite3_stmt* row, int start_col, int data_col,
                        const std::function<void(int64_t tick, const Value& value)>& each) {
  ChunkReader r;
  const std::string_view blob(static_cast<const char*>(sqlite3_column_blob(row, data_col)),
                              static_cast<size_t>(sqlite3_column_bytes(row, data_col)));
  if (!r.Open(blob, sqlite3_column_int64(row, start_col))) return false;
  int64_t tick;
  Value value;
  while (r.Next(&tick, &value)) each(tick, value);
  return r.ok();
}

// Every change the rows hold, decoded: "entity field tick value", in key
// order and each (entity, field)'s changes in tick order.
std::vector<std::string> DecodedChanges(Db* db) {
  std::vector<std::string> out;
  Stmt s;
  EXPECT_TRUE(
      s.Prepare(db, "SELECT entity, field_id, start_tick, data FROM changes ORDER BY 1, 2, 3, seq")
          .ok());
  EXPECT_TRUE(s.ForEachRow([&](sqlite3_stmt* row) {
                 EXPECT_TRUE(ForEachChunkChange(row, 2, 3, [&](int64_t tick, const Value& value) {
                   out.push_back(std::to_string(sqlite3_column_int64(row, 0)) + " " +
                                 std::to_string(sqlite3_column_int64(row, 1)) + " " +
                                 std::to_string(tick) + " " + std::to_string(value.i));
                 }));
               }).ok());
  return out;
}

// A long match's slow fields would keep their chunks open, and growing,
// for most of the match: past the held budget the fullest open chunks
// close early. The rows still hold every change once, in order, and the
// open chunks never hold much more than the budget.
TEST(ChangeStoreBudgetTest, TrimmedChunksHoldEveryChangeOnce) {
  struct Result {
    std::vector<std::string> changes;
    uint64_t chunks, trims, peak_held;
  };
  auto run = [](uint64_t budget) {
    Db db;
    EXPECT_TRUE(OpenChangesDb(&db));
    ChangeStore store(256, nullptr, budget);
    EXPECT_TRUE(store.OpenSpill(TempDir()).ok());
    // Field f of every entity changes every 2^f ticks: fast fields fill
    // their chunks, slow ones would hold theirs open to the end.
    for (int64_t tick = 1; tick <= 20000; ++tick) {
      for (uint64_t e = 0; e < 24; ++e) {
        if (e == 5 && tick > 15000) continue;  // gone
        std::vector<HeldChange> held;
        std::string arena;
        for (uint32_t f = 0; f < 10; ++f) {
          if (tick % (int64_t{1} << f) != 0) continue;
          HeldChange h;
          h.Set(f, tick, Value::Int(tick * 31 + static_cast<int64_t>(e * 7 + f)),
                QuantizerRegistry::kNone, &arena);
          held.push_back(h);
        }
        if (!held.empty()) store.Add(e, held, false, arena);
      }
      if (tick == 15000) store.CloseEntity(5);
    }
    EXPECT_TRUE(WriteRows(&store, &db));
    return Result{DecodedChanges(&db), store.chunks(), store.trims(), store.peak_held()};
  };
  const Result whole = run(ChangeStore::kHeldBudget);
  const Result trimmed = run(12000);
  std::printf("chunks %llu whole, %llu trimmed (%llu trims); held at most %llu whole, %llu trimmed\n",
              (unsigned long long)whole.chunks, (unsigned long long)trimmed.chunks,
              (unsigned long long)trimmed.trims, (unsigned long long)whole.peak_held,
              (unsigned long long)trimmed.peak_held);
  EXPECT_EQ(whole.trims, 0u);
  EXPECT_GT(whole.peak_held, 20000u);  // the unbudgeted store held far more
  EXPECT_GT(trimmed.trims, 3u);
  // Held changes are counted after each entity's buffer is packed (at
  // most kBufferedPerEntity at once), then trimmed.
  EXPECT_LE(trimmed.peak_held, 12000u + ChangeStore::kBufferedPerEntity);
  EXPECT_GT(trimmed.chunks, whole.chunks);
  // A third of what it would hold: the fullest chunks close first, so
  // rows grow far less than the budget shrinks (1.41x when written).
  EXPECT_LT(trimmed.chunks, whole.chunks * 8 / 5);
  // Every change, once, the same values at the same ticks.
  ASSERT_EQ(trimmed.changes.size(), whole.changes.size());
  size_t expected = 0;
  for (uint32_t f = 0; f < 10; ++f) expected += 23 * (20000 >> f) + (15000 >> f);
  EXPECT_EQ(whole.changes.size(), expected);
  for (size_t i = 0; i < whole.changes.size(); ++i) {
    ASSERT_EQ(trimmed.changes[i], whole.changes[i]) << "change " << i;
  }
}

// A chunk writer keeps its buffers for the next chunk, but one whose chunk
// took long to fill gives them back as the chunk closes: a long-lived
// entity's slow fields would otherwise each hold their fullest chunk's
// buffers, mostly empty, and memory grew with the match's length. The
// rows are the same either way.
TEST(ChangeStoreMemoryTest, SlowChunksGiveTheirBuffersBackAsTheyClose) {
  // 32 fields of one entity change together, `every` ticks apart; one
  // buffer's worth of updates is packed at once, 5 changes to a chunk:
  // each field then has closed 3 chunks and holds 1 change of a 4th.
  constexpr uint32_t kFields = 32;
  constexpr int64_t kUpdates = ChangeStore::kBufferedPerEntity / kFields;
  static_assert(kUpdates == 16, "3 chunks of 5 and one change");
  struct Result {
    uint64_t writer_bytes;
    std::vector<std::string> changes;
  };
  auto run = [](int64_t every) {
    Db db;
    EXPECT_TRUE(OpenChangesDb(&db));
    ChangeStore store(5);
    EXPECT_TRUE(store.OpenSpill(TempDir()).ok());
    Result r;
    for (int64_t n = 0; n < kUpdates; ++n) {
      EXPECT_EQ(store.writer_heap_bytes(), 0u);  // not packed yet
      std::vector<HeldChange> held;
      std::string arena;
      for (uint32_t f = 0; f < kFields; ++f) {
        HeldChange h;
        h.Set(f, 1 + n * every, Value::Int(int64_t{1} << 50 | (n * 64 + f)),
              QuantizerRegistry::kNone, &arena);
        held.push_back(h);
      }
      store.Add(1, held, false, arena);
    }
    r.writer_bytes = store.writer_heap_bytes();
    EXPECT_TRUE(WriteRows(&store, &db));
    EXPECT_EQ(store.chunks(), 4u * kFields);
    r.changes = DecodedChanges(&db);
    return r;
  };
  const Result fast = run(1);     // a chunk fills in 5 ticks
  const Result slow = run(1000);  // in 5,000
  std::printf("writers' heap bytes: %llu fast, %llu slow\n",
              (unsigned long long)fast.writer_bytes, (unsigned long long)slow.writer_bytes);
  EXPECT_GT(fast.writer_bytes, 16u * kFields);  // each kept its last chunk's buffers
  EXPECT_EQ(slow.writer_bytes, 0u);             // one value each: no buffer at all
  ASSERT_EQ(slow.changes.size(), static_cast<size_t>(kFields * kUpdates));
  ASSERT_EQ(fast.changes.size(), slow.changes.size());
  for (size_t i = 0; i < slow.changes.size(); ++i) {
    // "entity field tick value": the same but for the ticks.
    const std::string& a = fast.changes[i];
    const std::string& b = slow.changes[i];
    EXPECT_EQ(a.substr(a.rfind(' ')), b.substr(b.rfind(' '))) << "change " << i;
  }
}

// WriteAll gives each entity's chunk bytes back once SQLite has taken its
// rows, not when a statement's worth of rows happens to end with an
// entity: with the sealer kept one entity ahead, the bytes held at once
// stay a few entities' worth. (Before, a 72-minute Deadlock match held
// 16 MB of its heroes' chunks at the start of the finish.)
TEST(ChangeStoreSealTest, EntitiesGiveTheirBytesBackAsTheirRowsAreTaken) {
  Db db;
  ASSERT_TRUE(OpenChangesDb(&db));
  ChangeStore store(4, nullptr, ChangeStore::kHeldBudget, /*seal_ahead=*/1);
  ASSERT_TRUE(store.OpenSpill(TempDir()).ok());
  // 60 entities of about 40 chunks each; no entity's rows fill whole
  // statements (rows_per_many of them).
  constexpr uint64_t kEntities = 60;
  for (int64_t tick = 1; tick <= 40; ++tick) {
    for (uint64_t e = 0; e < kEntities; ++e) {
      std::vector<HeldChange> held;
      std::string arena;
      for (uint32_t f = 0; f < 4 + e % 3; ++f) {
        HeldChange h;
        h.Set(f, tick, Value::Int(tick * 1009 + static_cast<int64_t>(e * 13 + f)),
              QuantizerRegistry::kNone, &arena);
        held.push_back(h);
      }
      store.Add(e, held, false, arena);
    }
  }
  Insert insert;
  ASSERT_TRUE(
      insert.Prepare(&db, "changes(entity, field_id, start_tick, seq, end_tick, count, data)", 7)
          .ok());
  ASSERT_GT(insert.rows_per_many(), 1);
  ASSERT_TRUE(store.WriteAll(&insert).ok());
  insert.Finalize();
  const uint64_t per_entity = store.blob_bytes() / kEntities;
  std::printf("chunk bytes %llu (%llu an entity); held at most %llu\n",
              (unsigned long long)store.blob_bytes(), (unsigned long long)per_entity,
              (unsigned long long)store.peak_sealed_bytes());
  EXPECT_GT(store.peak_sealed_bytes(), 0u);
  EXPECT_LE(store.peak_sealed_bytes(), 6 * per_entity);
}

// The pipeline's streamed copy of a change holds what Set makes of it.
TEST(HeldChangeTest, StreamedEqualsSet) {
  const float v[3] = {1.5f, -2.25f, 1e30f};
  const Value values[] = {Value::None(),        Value::Bool(true),  Value::Int(-7),
                          Value::Uint(~0ull),   Value::Float(0.1f), Value::Vector(v, 3),
                          Value::String("abc"), Value::String("")};
  std::string set_arena, stream_arena;
  for (const Value& value : values) {
    HeldChange set, streamed;
    set.Set(4000000000u, -3, value, 513, &set_arena);
    HeldChange::StreamTo(&streamed, 4000000000u, -3, value, 513, &stream_arena);
    HeldChange::StreamFence();
    EXPECT_EQ(streamed.tick, -3);
    EXPECT_EQ(streamed.field, 4000000000u);
    EXPECT_EQ(streamed.quantizer, 513);
    EXPECT_TRUE(streamed.Get(stream_arena).SameAs(set.Get(set_arena))) << ValueKindName(value.kind);
    EXPECT_EQ(streamed.Get(stream_arena).count, set.Get(set_arena).count);
  }
  EXPECT_EQ(stream_arena, "abc");
}

// Strings past a batch's string budget start a new batch; every byte of
// every value still arrives, in order.
TEST(ChangePipelineTest, LongStringsCrossBatches) {
  Db db;
  ASSERT_TRUE(OpenChangesDb(&db));
  ChangeStore store(4);
  constexpr int kValues = 40;  // 40 MiB: more than two batches' string budget
  {
    ChangePipeline pipeline(&store, {});
    std::string big(1 << 20, 'x');
    for (int tick = 1; tick <= kValues; ++tick) {
      big.front() = big.back() = static_cast<char>('a' + tick % 26);
      FieldChange c;
      c.field_id = 2;
      c.value = Value::String(big);
      pipeline.AddChanges(7, tick, std::span<const FieldChange>(&c, 1), {});
    }
    pipeline.Drain();
    ASSERT_TRUE(pipeline.error().ok());
    // 40 MiB over a 16 MiB budget: at least three batches.
    EXPECT_GE(pipeline.submitted(), 3u);
  }
  Insert insert;
  ASSERT_TRUE(
      insert.Prepare(&db, "changes(entity, field_id, start_tick, seq, end_tick, count, data)", 7)
          .ok());
  ASSERT_TRUE(store.WriteAll(&insert).ok());
  insert.Finalize();
  Stmt s;
  ASSERT_TRUE(s.Prepare(&db,
                        "SELECT start_tick, data FROM changes WHERE entity = 7 AND "
                        "field_id = 2 ORDER BY start_tick, seq")
                  .ok());
  int seen = 0;
  ASSERT_TRUE(s.ForEachRow([&](sqlite3_stmt* row) {
                 EXPECT_TRUE(ForEachChunkChange(row, 0, 1, [&](int64_t tick, const Value& v) {
                   ++seen;
                   EXPECT_EQ(tick, seen);
                   ASSERT_EQ(v.kind, ValueKind::kString);
                   ASSERT_EQ(v.s.size(), size_t{1} << 20);
                   const char mark = static_cast<char>('a' + seen % 26);
                   EXPECT_EQ(v.s.front(), mark);
                   EXPECT_EQ(v.s.back(), mark);
                   EXPECT_EQ(v.s[v.s.size() / 2], 'x');
                 }));
               }).ok());
  EXPECT_EQ(seen, kValues);
}

}  // namespace
}  // namespace gem::index
