// The write side of the changes (indexer/interval_store.h, run_pages.h,
// row_blocks.h), read back with the codec alone: every change lands once,
// in its interval's row (logged) or in a run the row names, each row's
// state is the state the test gave at its keyframe tick (or none, for an
// entity born in it), rows come in entity order, runs pack the changes
// table's rows full; and the pipeline carries long strings across
// batches.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/codec/index_format.h"
#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/keyframe_rows.h"
#include "core/codec/state_codec.h"
#include "indexer/change_pipeline.h"
#include "indexer/held_change.h"
#include "indexer/interval_store.h"
#include "indexer/quantizer_registry.h"
#include "indexer/row_blocks.h"
#include "indexer/run_pages.h"
#include "indexer/sqlite_db.h"
#include "indexer/store_rows.h"

namespace gem::index {
namespace {

// An in-memory index with the tables the store writes, and the store,
// whose rows are recorded in `rows` and inserted by Write.
struct Harness {
  Db db;
  Insert inserts[kStoreStmts];
  RowBuffer rows;
  std::unique_ptr<RunPages> pages;
  std::unique_ptr<RowBlocks> blocks;
  std::unique_ptr<IntervalStore> store;

  explicit Harness(const IntervalSettings& settings) {
    EXPECT_TRUE(db.Open(":memory:").ok());
    EXPECT_TRUE(db.Exec("CREATE TABLE changes(id INTEGER PRIMARY KEY, data BLOB NOT NULL);"
                        "CREATE TABLE keyframes(key INTEGER PRIMARY KEY, tick, first_entity, "
                        "last_entity, data);"
                        "CREATE TABLE tail(seq, entity, part, tick, data);"
                        "CREATE TABLE entity_states(entity, tick, data, base);")
                    .ok());
    EXPECT_TRUE(PrepareStoreInserts(&db, inserts).ok());
    pages = std::make_unique<RunPages>();
    blocks = std::make_unique<RowBlocks>();
    store = std::make_unique<IntervalStore>(settings, nullptr, pages.get(), blocks.get());
    store->SetOutput(&rows);
  }
  // Inserts the rows recorded so far.
  void Write() {
    EXPECT_TRUE(rows.RunAll(inserts).ok());
    rows.clear();
  }
};

// A change as the test keeps it: tick and the value's JSON.
using Change = std::pair<int64_t, std::string>;
std::string Json(const Value& v) {
  std::string out;
  v.AppendJson(&out);
  return v.is_none() ? "none" : out;
}

// What the index holds for an entity in one interval.
struct Interval {
  bool born = false;
  std::map<uint32_t, std::string> state;            // field -> JSON
  std::map<uint32_t, std::vector<Change>> changes;  // field -> changes
  std::map<uint32_t, bool> in_runs;                 // field -> its changes in runs
};

// Reads every row of every interval back: (slot, entity) -> Interval.
std::map<std::pair<int64_t, int64_t>, Interval> ReadBack(Db* db) {
  std::map<int64_t, std::string> pages;
  {
    Stmt s;
    EXPECT_TRUE(s.Prepare(db, "SELECT id, data FROM changes ORDER BY id").ok());
    int64_t prev = 0;
    EXPECT_TRUE(s.ForEachRow([&](sqlite3_stmt* row) {
                   const int64_t id = sqlite3_column_int64(row, 0);
                   EXPECT_EQ(id, prev + 1) << "rows' ids follow each other";
                   prev = id;
                   pages[id].assign(static_cast<const char*>(sqlite3_column_blob(row, 1)),
                                    static_cast<size_t>(sqlite3_column_bytes(row, 1)));
                 }).ok());
  }
  std::map<std::pair<int64_t, int64_t>, Interval> out;
  Stmt s;
  EXPECT_TRUE(s.Prepare(db, "SELECT key, tick, data FROM keyframes ORDER BY key").ok());
  KeyframeDecompressor d;
  EXPECT_TRUE(s.ForEachRow([&](sqlite3_stmt* row) {
                 const int64_t key = sqlite3_column_int64(row, 0);
                 const int64_t k = sqlite3_column_int64(row, 1);
                 const int64_t slot = key >> kKeyframeEntityBits;
                 const std::string blob(static_cast<const char*>(sqlite3_column_blob(row, 2)),
                                        static_cast<size_t>(sqlite3_column_bytes(row, 2)));
                 KeyframeBlock block;
                 ASSERT_TRUE(block.Open(blob, key & 0xFFFFFFFF, &d));
                 for (int64_t entity = block.first_entity(); entity <= block.last_entity();
                      ++entity) {
                   std::string_view bytes;
                   if (!block.Find(entity, &bytes)) continue;
                   Interval& iv = out[{slot, entity}];
                   KeyframeReader r;
                   ASSERT_TRUE(r.Open(bytes, k));
                   iv.born = r.born();
                   StateReader st;
                   if (!r.born()) {
                     ASSERT_TRUE(st.Open(r.state()));
                     uint32_t f;
                     Value v;
                     while (st.Next(&f, &v)) iv.state[f] = Json(v);
                     ASSERT_TRUE(st.ok());
                   }
                   uint32_t field;
                   bool runs;
                   uint64_t count;
                   while (r.NextLater(&field, &runs, &count)) {
                     iv.in_runs[field] = runs;
                     std::vector<Change>& c = iv.changes[field];
                     if (!runs) {
                       int64_t t;
                       Value v;
                       while (r.NextLogged(&t, &v)) c.emplace_back(t, Json(v));
                       continue;
                     }
                     RunRef ref;
                     while (r.NextRun(&ref)) {
                       ASSERT_TRUE(pages.count(ref.page)) << ref.page;
                       const std::string& page = pages[ref.page];
                       ASSERT_LE(ref.offset + ref.length, page.size());
                       ChunkReader cr;
                       ASSERT_TRUE(cr.Open(std::string_view(page).substr(ref.offset, ref.length),
                                           ref.first_tick));
                       int64_t t;
                       Value v;
                       bool first = true;
                       while (cr.Next(&t, &v)) {
                         if (first) {
                           EXPECT_EQ(t, ref.first_tick);
                         }
                         first = false;
                         c.emplace_back(t, Json(v));
                       }
                       ASSERT_TRUE(cr.ok());
                     }
                   }
                   ASSERT_TRUE(r.ok());
                 }
               }).ok());
  return out;
}

// Feeds a store a random match and checks what it wrote: `entities`
// entities over `ticks` ticks, intervals of 100 ticks.
void CheckRandomMatch(uint32_t max_logged, uint64_t held_budget, IntervalStats* stats) {
  IntervalSettings settings;
  settings.max_logged = max_logged;
  settings.max_per_run = 16;
  settings.held_budget = held_budget;
  settings.buffered = 16;
  Harness h(settings);
  constexpr int64_t kInterval = 100;
  constexpr int64_t kTicks = 450;
  std::mt19937 rng(11);
  // The state each entity has (field -> value), and what the index should
  // hold: (slot, entity) -> Interval.
  std::map<uint64_t, std::map<uint32_t, std::string>> state;
  std::map<uint64_t, std::map<uint32_t, HeldChange>> held_state;
  std::map<std::pair<int64_t, int64_t>, Interval> want;
  std::string arena_keep;
  int64_t slot = 0;
  uint64_t next_entity = 1;
  std::vector<uint64_t> alive;
  auto create = [&] {
    const uint64_t e = next_entity++;
    h.store->Create(e);
    alive.push_back(e);
    state[e];
    want[{slot, static_cast<int64_t>(e)}].born = true;
  };
  for (int i = 0; i < 6; ++i) create();
  for (int64_t tick = -1; tick <= kTicks; ++tick) {
    if (tick > 0 && tick % kInterval == 1) {
      // The interval (tick - 101, tick - 1] closes; the states at its end
      // start the next.
      const int64_t boundary = tick - 1;
      ASSERT_TRUE(h.store->CloseInterval(boundary, kInterval).ok());
      ++slot;
      for (uint64_t e : alive) {
        std::vector<std::pair<uint32_t, Value>> entries;
        for (const auto& [f, hc] : held_state[e]) entries.emplace_back(f, hc.Get(arena_keep));
        std::string blob;
        EncodeState(&entries, &blob);
        h.store->Snapshot(e, blob);
        Interval& iv = want[{slot, static_cast<int64_t>(e)}];
        iv.state = state[e];
      }
    }
    if (tick > 0 && rng() % 40 == 0) create();
    if (tick > 0 && rng() % 60 == 0 && alive.size() > 2) {
      const size_t at = rng() % alive.size();
      h.store->Delete(alive[at]);
      alive.erase(alive.begin() + static_cast<ptrdiff_t>(at));
    }
    for (uint64_t e : alive) {
      std::vector<HeldChange> held;
      std::string arena;
      bool strings = false;
      for (uint32_t f = 0; f < 12; ++f) {
        // Field f changes every tick (0-2), now and then (3-8), rarely
        // (9-11); 4 is a string, 5 turns float once, 6 drops now and then.
        const uint32_t odds = f < 3 ? 1 : f < 9 ? 9 : 97;
        if (rng() % odds != 0) continue;
        Value v = Value::Int(static_cast<int64_t>(rng() % 100) - 50);
        if (f == 4) {
          static const char* names[] = {"dire", "radiant", "", "a long name to copy"};
          v = Value::String(names[rng() % 4]);
          strings = true;
        } else if (f == 5 && tick > 200) {
          v = Value::Float(static_cast<float>(rng() % 7) / 2);
        } else if (f == 6 && rng() % 3 == 0) {
          v = Value::None();
        }
        HeldChange c;
        c.Set(f, tick, v, QuantizerRegistry::kNone, &arena);
        held.push_back(c);
      }
      if (held.empty()) continue;
      h.store->Add(e, held, strings, arena);
      for (const HeldChange& c : held) {
        const Value v = c.Get(arena);
        want[{slot, static_cast<int64_t>(e)}].changes[c.field].emplace_back(c.tick, Json(v));
        if (v.is_none()) {
          state[e].erase(c.field);
          held_state[e].erase(c.field);
        } else {
          state[e][c.field] = Json(v);
          HeldChange kept;
          kept.Set(c.field, c.tick, v, QuantizerRegistry::kNone, &arena_keep);
          held_state[e][c.field] = kept;
        }
      }
    }
  }
  ASSERT_TRUE(h.store->Finish().ok());
  h.Write();
  // Entities alive with no change in an interval still have its row.
  const auto got = ReadBack(&h.db);
  EXPECT_EQ(got.size(), want.size());
  size_t logged = 0, runs = 0;
  for (const auto& [key, w] : want) {
    auto it = got.find(key);
    ASSERT_NE(it, got.end()) << "slot " << key.first << " entity " << key.second;
    const Interval& g = it->second;
    EXPECT_EQ(g.born, w.born) << key.first << " " << key.second;
    if (!w.born) {
      EXPECT_EQ(g.state, w.state) << key.first << " " << key.second;
    }
    EXPECT_EQ(g.changes, w.changes) << key.first << " " << key.second;
    for (const auto& [f, changes] : w.changes) {
      // At most max_logged changes in the row, more in runs (a field whose
      // values change kind too).
      if (g.in_runs.at(f)) {
        ++runs;
        EXPECT_TRUE(changes.size() > max_logged || f == 5) << f;
      } else {
        ++logged;
        EXPECT_LE(changes.size(), max_logged) << f;
      }
    }
  }
  EXPECT_GT(logged, 0u);
  EXPECT_GT(runs, 0u);
  EXPECT_EQ(h.store->stats().intervals, 6u);  // 5 ends and the last
  EXPECT_EQ(h.store->held(), 0u);
  *stats = h.store->stats();
}

TEST(IntervalStore, EveryChangeOnceInItsIntervalsRowOrRuns) {
  IntervalStats stats;
  CheckRandomMatch(4, 1u << 20, &stats);
  EXPECT_EQ(stats.trims, 0u);
}

TEST(IntervalStore, TrimmedRunsLoseNothing) {
  // A budget of a few dozen held changes: runs close early, all the time.
  IntervalStats stats;
  CheckRandomMatch(4, 40, &stats);
  EXPECT_GT(stats.trims, 10u);
}

TEST(IntervalStore, ALoggedFieldWhoseValuesChangeKindGoesToRuns) {
  IntervalSettings settings;
  settings.max_logged = 8;
  Harness h(settings);
  h.store->Create(1);
  std::string arena;
  HeldChange c[2];
  c[0].Set(3, 5, Value::Int(4), QuantizerRegistry::kNone, &arena);
  c[1].Set(3, 6, Value::Float(0.5f), QuantizerRegistry::kNone, &arena);
  h.store->Add(1, c, false, arena);
  ASSERT_TRUE(h.store->Finish().ok());
  h.Write();
  const auto got = ReadBack(&h.db);
  const Interval& iv = got.at({0, 1});
  EXPECT_TRUE(iv.in_runs.at(3));
  EXPECT_EQ(iv.changes.at(3), (std::vector<Change>{{5, "4"}, {6, "0.5"}}));
}

TEST(IntervalStore, AnIntervalEndOutOfOrderIsRefused) {
  Harness h(IntervalSettings{});
  ASSERT_TRUE(h.store->CloseInterval(0, 100).ok());
  EXPECT_FALSE(h.store->CloseInterval(300, 100).ok());
}

TEST(IntervalStore, AnEntityAliveAtABoundaryNeedsItsState) {
  Harness h(IntervalSettings{});
  h.store->Create(1);
  ASSERT_TRUE(h.store->CloseInterval(0, 100).ok());
  // No Snapshot for entity 1: its next row cannot be made.
  EXPECT_FALSE(h.store->Finish().ok());
}

TEST(RunPages, RowsFillAndKeepTheirOrder) {
  Harness h(IntervalSettings{});
  RunPages& pages = *h.pages;
  Db& db = h.db;
  std::mt19937 rng(3);
  std::vector<std::pair<std::pair<int64_t, uint32_t>, std::string>> placed;
  for (int i = 0; i < 3000; ++i) {
    // Runs of 6 to 940 bytes, mostly small, and now and then one past a
    // row's size.
    size_t n = 6 + rng() % (rng() % 4 == 0 ? 934 : 120);
    if (i % 997 == 5) n = kRunPageBytes + 100;
    std::string run(n, static_cast<char>('a' + i % 26));
    int64_t page = 0;
    uint32_t offset = 0;
    pages.Place(run, &page, &offset);
    placed.push_back({{page, offset}, run});
  }
  pages.Flush();
  h.Write();
  std::map<int64_t, std::string> rows;
  Stmt s;
  ASSERT_TRUE(s.Prepare(&db, "SELECT id, data FROM changes ORDER BY rowid").ok());
  int64_t prev = 0;
  ASSERT_TRUE(s.ForEachRow([&](sqlite3_stmt* row) {
                 const int64_t id = sqlite3_column_int64(row, 0);
                 EXPECT_EQ(id, prev + 1);
                 prev = id;
                 rows[id].assign(static_cast<const char*>(sqlite3_column_blob(row, 1)),
                                 static_cast<size_t>(sqlite3_column_bytes(row, 1)));
               }).ok());
  for (const auto& [where, run] : placed) {
    ASSERT_TRUE(rows.count(where.first));
    EXPECT_EQ(rows[where.first].substr(where.second, run.size()), run);
  }
  // Full: past the big runs' rows, the bytes rows hold are within 3% of
  // what they could hold.
  uint64_t used = 0, rows_normal = 0;
  for (const auto& [id, data] : rows) {
    if (data.size() > kRunPageBytes) continue;
    used += data.size();
    ++rows_normal;
  }
  EXPECT_GT(static_cast<double>(used), 0.97 * static_cast<double>(rows_normal * kRunPageBytes))
      << used << " bytes in " << rows_normal << " rows";
  EXPECT_EQ(pages.stats().pages, rows.size());
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
  IntervalSettings settings;
  settings.max_logged = 0;  // all in runs
  settings.max_per_run = 4;
  Harness h(settings);
  constexpr int kValues = 40;  // 40 MiB: more than two batches' string budget
  {
    ChangePipeline pipeline({});
    pipeline.SetStore(h.store.get(), h.inserts);
    pipeline.CreateEntity(7, 0, 0, {});
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
  h.store->SetOutput(&h.rows);
  ASSERT_TRUE(h.store->Finish().ok());
  h.Write();
  const auto got = ReadBack(&h.db);
  const std::vector<Change>& changes = got.at({0, 7}).changes.at(2);
  ASSERT_EQ(changes.size(), static_cast<size_t>(kValues));
  for (int i = 0; i < kValues; ++i) {
    const std::string& json = changes[i].second;
    EXPECT_EQ(changes[i].first, i + 1);
    const char mark = static_cast<char>('a' + (i + 1) % 26);
    // The JSON string: a quote, the value, a quote.
    ASSERT_EQ(json.size(), (size_t{1} << 20) + 2);
    EXPECT_EQ(json[1], mark);
    EXPECT_EQ(json[json.size() - 2], mark);
    EXPECT_EQ(json[json.size() / 2], 'x');
  }
}

}  // namespace
}  // namespace gem::index
