// KeyframeBuilder against a reference written here: for random entities
// (fields that change every tick, now and then, in bursts, with dropped
// values and changes of one tick split across chunks), each row read back
// must hold, field by field, the value as of its keyframe and either the
// interval's changes (few, one kind) or the tick of the first one
// (sought). The reference walks every change; the builder passes over
// chunks it does not need, so the two must agree on every row.
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "gtest/gtest.h"
#include "indexer/keyframe_builder.h"

namespace gem::testing {
namespace {

struct Change {
  int64_t tick;
  Value value;
};

// What a row should say of one field.
struct FieldRow {
  bool has_state = false;
  Value state;
  bool later = false;
  bool sought = false;
  int64_t first_tick = 0;
  std::vector<Change> logged;
};

bool Same(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ValueKind::kNone: return true;
    case ValueKind::kString: return a.s == b.s;
    case ValueKind::kVector:
      return a.count == b.count && std::equal(a.v, a.v + a.count, b.v);
    default: return a.u == b.u;
  }
}

// The reference: every change in order, interval by interval.
std::map<uint32_t, FieldRow> Expected(int64_t k, int64_t interval, uint32_t max_logged,
                                      int64_t created,
                                      const std::map<uint32_t, Value>& creation,
                                      const std::map<uint32_t, std::vector<Change>>& changes) {
  std::map<uint32_t, FieldRow> out;
  std::map<uint32_t, bool> fields;
  for (const auto& [f, v] : creation) fields[f] = true;
  for (const auto& [f, c] : changes) fields[f] = true;
  for (const auto& [f, unused] : fields) {
    FieldRow row;
    Value value = creation.count(f) ? creation.at(f) : Value::None();
    std::vector<Change> later;
    if (changes.count(f)) {
      for (const Change& c : changes.at(f)) {
        if (c.tick <= k && created <= k) {
          value = c.value;
        } else if (c.tick < k + interval) {
          later.push_back(c);
        }
      }
    }
    row.has_state = !value.is_none();
    row.state = value;
    if (!later.empty()) {
      row.later = true;
      bool one_kind = true;
      ValueKind kind = ValueKind::kNone;
      for (const Change& c : later) {
        if (c.value.is_none()) continue;
        if (kind == ValueKind::kNone) kind = c.value.kind;
        one_kind &= c.value.kind == kind;
      }
      row.sought = later.size() > max_logged || !one_kind;
      row.first_tick = later[0].tick;
      if (!row.sought) row.logged = later;
    }
    if (row.has_state || row.later) out[f] = row;
  }
  return out;
}

// A row read back, field by field.
std::map<uint32_t, FieldRow> Read(const std::string& blob, int64_t k) {
  std::map<uint32_t, FieldRow> out;
  KeyframeReader r;
  EXPECT_TRUE(r.Open(blob, k));
  StateReader state;
  EXPECT_TRUE(state.Open(r.state()));
  uint32_t f;
  Value v;
  while (state.Next(&f, &v)) {
    out[f].has_state = !v.is_none();
    out[f].state = v;
  }
  EXPECT_TRUE(state.ok());
  bool sought;
  int64_t first;
  while (r.NextLater(&f, &sought, &first)) {
    FieldRow& row = out[f];
    row.later = true;
    row.sought = sought;
    if (sought) {
      row.first_tick = first;
      continue;
    }
    int64_t t;
    while (r.NextLogged(&t, &v)) row.logged.push_back({t, v});
    row.first_tick = row.logged.empty() ? -1 : row.logged[0].tick;
  }
  EXPECT_TRUE(r.ok());
  return out;
}

Value RandomValue(std::mt19937_64* rng, ValueKind kind) {
  switch (kind) {
    case ValueKind::kInt: return Value::Int(static_cast<int64_t>((*rng)() % 2000) - 1000);
    case ValueKind::kUint: return Value::Uint((*rng)() % 100000);
    case ValueKind::kFloat: return Value::Float(static_cast<float>((*rng)() % 10000) / 8.0f);
    case ValueKind::kBool: return Value::Bool((*rng)() & 1);
    default: {
      const float xs[3] = {static_cast<float>((*rng)() % 100), 1.5f,
                           static_cast<float>((*rng)() % 7)};
      return Value::Vector(xs, 3);
    }
  }
}

TEST(KeyframeBuilder, EveryRowAgreesWithEveryChangeReadInOrder) {
  std::mt19937_64 rng(20261202);
  const ValueKind kinds[] = {ValueKind::kInt, ValueKind::kUint, ValueKind::kFloat,
                             ValueKind::kBool, ValueKind::kVector};
  size_t rows = 0, sought = 0, logged = 0, chunks = 0;
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE(trial);
    const int64_t interval = 1 + static_cast<int64_t>(rng() % 400);
    const uint32_t max_logged = static_cast<uint32_t>(rng() % 20);
    const int64_t created = static_cast<int64_t>(rng() % 500) - 1;
    const int64_t end = created + 1 + static_cast<int64_t>(rng() % 3000);
    std::map<uint32_t, Value> creation;
    std::map<uint32_t, std::vector<Change>> changes;
    const int fields = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < fields; ++i) {
      const uint32_t f = static_cast<uint32_t>(i * 3 + rng() % 3);
      const ValueKind kind = kinds[rng() % 5];
      if (rng() % 3 != 0) creation[f] = RandomValue(&rng, kind);
      // Every tick, now and then, or in bursts; some drops, some ticks
      // with several changes.
      const int style = static_cast<int>(rng() % 3);
      std::vector<Change>& list = changes[f];
      for (int64_t t = created; t < end; ++t) {
        const bool change = style == 0 ? true
                            : style == 1 ? rng() % 97 == 0
                                         : (t / 200) % 3 == 0 && rng() % 4 == 0;
        if (!change) continue;
        const int times = rng() % 50 == 0 ? 2 + static_cast<int>(rng() % 300) : 1;
        for (int n = 0; n < times; ++n) {
          list.push_back({t, rng() % 40 == 0 ? Value::None() : RandomValue(&rng, kind)});
        }
      }
      if (list.empty()) changes.erase(f);
    }
    // Chunks as the change store closes them: at most 256 changes, or a
    // kind change; here also at random.
    std::vector<std::string> blobs;
    std::vector<index::ChunkView> views;
    for (const auto& [f, list] : changes) {
      ChunkWriter w;
      auto close = [&] {
        views.push_back({f, w.first_tick(), w.last_tick(), w.count(), {}});
        blobs.emplace_back();
        w.Finish(&blobs.back());
      };
      for (const Change& c : list) {
        if (!w.empty() && (!w.Accepts(c.value) || w.count() >= 256 || rng() % 60 == 0)) close();
        w.Add(c.tick, c.value);
      }
      if (!w.empty()) close();
    }
    for (size_t i = 0; i < views.size(); ++i) views[i].data = blobs[i];
    std::vector<std::pair<uint32_t, Value>> state(creation.begin(), creation.end());
    std::string creation_blob;
    if (!state.empty()) EncodeState(&state, &creation_blob);

    index::KeyframeBuilder builder({interval, max_logged});
    std::vector<index::KeyframeRow> built;
    ASSERT_TRUE(builder.Build(created, end, creation_blob, views, &built));
    // One row per interval the entity is alive in.
    const int64_t first_k = KeyframeTickOf(created, interval);
    ASSERT_EQ(built.size(), static_cast<size_t>((end - 1 - first_k) / interval + 1));
    for (size_t i = 0; i < built.size(); ++i) {
      const int64_t k = first_k + static_cast<int64_t>(i) * interval;
      ASSERT_EQ(built[i].tick, k);
      const auto want = Expected(k, interval, max_logged, created, creation, changes);
      const auto got = Read(built[i].data, k);
      ASSERT_EQ(got.size(), want.size()) << "row at " << k;
      for (const auto& [f, w] : want) {
        SCOPED_TRACE("field " + std::to_string(f) + " row at " + std::to_string(k));
        ASSERT_TRUE(got.count(f));
        const FieldRow& g = got.at(f);
        EXPECT_EQ(g.has_state, w.has_state);
        if (w.has_state) {
          EXPECT_TRUE(Same(g.state, w.state));
        }
        EXPECT_EQ(g.later, w.later);
        if (!w.later) continue;
        EXPECT_EQ(g.sought, w.sought);
        EXPECT_EQ(g.first_tick, w.first_tick);
        ASSERT_EQ(g.logged.size(), w.logged.size());
        for (size_t j = 0; j < w.logged.size(); ++j) {
          EXPECT_EQ(g.logged[j].tick, w.logged[j].tick);
          EXPECT_TRUE(Same(g.logged[j].value, w.logged[j].value));
        }
        sought += w.sought;
        logged += !w.sought;
      }
      ++rows;
    }
    chunks += views.size();
  }
  // The trials reached every case.
  EXPECT_GT(rows, 1000u);
  EXPECT_GT(sought, 500u);
  EXPECT_GT(logged, 500u);
  EXPECT_GT(chunks, 2000u);
}

}  // namespace
}  // namespace gem::testing
