// The storage codec: chunks of changes and creation states decode to
// exactly what was encoded, for every value kind; damaged blobs are
// reported, not crashed on.
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/codec/state_codec.h"
#include "core/codec/varint.h"
#include "gtest/gtest.h"

namespace gem {
namespace {

Value RandomValue(ValueKind kind, std::mt19937_64* rng, std::vector<std::string>* strings) {
  switch (kind) {
    case ValueKind::kNone: return Value::None();
    case ValueKind::kBool: return Value::Bool((*rng)() & 1);
    case ValueKind::kInt: {
      // Mostly small steps, sometimes extremes.
      int64_t v = static_cast<int64_t>((*rng)() % 2000) - 1000;
      if ((*rng)() % 10 == 0) v = static_cast<int64_t>((*rng)());
      return Value::Int(v);
    }
    case ValueKind::kUint: {
      uint64_t v = (*rng)() % 5000;
      if ((*rng)() % 10 == 0) v = (*rng)();
      return Value::Uint(v);
    }
    case ValueKind::kFloat: {
      uint32_t bits = static_cast<uint32_t>((*rng)());
      float f;
      std::memcpy(&f, &bits, 4);  // any bit pattern, NaNs included
      if ((*rng)() % 2) f = static_cast<float>((*rng)() % 100000) / 7.0f;
      return Value::Float(f);
    }
    case ValueKind::kVector: {
      float v[4];
      int n = 2 + static_cast<int>((*rng)() % 3);
      for (int k = 0; k < n; ++k) v[k] = static_cast<float>(static_cast<int>((*rng)() % 20000) - 10000) / 3.0f;
      return Value::Vector(v, n);
    }
    case ValueKind::kString: {
      std::string s;
      size_t n = (*rng)() % 40;
      for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>((*rng)() % 256));
      strings->push_back(s);
      return Value::String(strings->back());
    }
  }
  return Value::None();
}

TEST(Codec, VarintLengthIsWhatWriteVarintWrites) {
  // Every bit length, at its smallest and largest value, and 0.
  for (int bits = 0; bits <= 64; ++bits) {
    const uint64_t low = bits == 0 ? 0 : uint64_t{1} << (bits - 1);
    const uint64_t high = bits == 0 ? 0 : bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    for (uint64_t v : {low, high}) {
      char buf[16];
      EXPECT_EQ(VarintLength(v), static_cast<size_t>(WriteVarint(v, buf) - buf)) << v;
    }
  }
}

TEST(Codec, ChunksRoundTripEveryKind) {
  std::mt19937_64 rng(7);
  for (int k = 0; k <= static_cast<int>(ValueKind::kString); ++k) {
    const ValueKind kind = static_cast<ValueKind>(k);
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<std::string> strings;
      strings.reserve(300);
      ChunkWriter w;
      std::vector<std::pair<int64_t, Value>> in;
      int64_t tick = static_cast<int64_t>(rng() % 1000) - 1;  // -1: signon
      size_t n = 1 + rng() % 256;
      for (size_t i = 0; i < n; ++i) {
        tick += static_cast<int64_t>(rng() % 3 == 0 ? 0 : rng() % 40);
        Value v = RandomValue(kind, &rng, &strings);
        ASSERT_TRUE(w.Accepts(v));
        w.Add(tick, v);
        in.emplace_back(tick, v);
      }
      EXPECT_EQ(w.count(), n);
      EXPECT_EQ(w.first_tick(), in.front().first);
      EXPECT_EQ(w.last_tick(), in.back().first);
      std::string blob;
      w.Finish(&blob);
      EXPECT_TRUE(w.empty());
      ChunkReader r;
      ASSERT_TRUE(r.Open(blob, in.front().first));
      EXPECT_EQ(r.count(), n);
      EXPECT_EQ(r.kind(), kind);
      int64_t t;
      Value v;
      size_t i = 0;
      while (r.Next(&t, &v)) {
        ASSERT_LT(i, n);
        EXPECT_EQ(t, in[i].first);
        EXPECT_TRUE(v.SameAs(in[i].second)) << "kind " << k << " value " << i;
        ++i;
      }
      EXPECT_TRUE(r.ok());
      EXPECT_EQ(i, n);
    }
  }
}

// A writer keeps its buffers from chunk to chunk; ReleaseMemory gives
// them back (assigning a new writer left a string's buffer in place), and
// the writer still writes what a new one would.
TEST(Codec, AReleasedWriterHoldsNoBuffersAndWritesAsANewOne) {
  auto fill = [](ChunkWriter* w, int64_t first, int kind) {
    for (int i = 0; i < 100; ++i) {
      const int64_t tick = first + i * 7 + i % 3;
      if (kind == 0) w->Add(tick, Value::Int(int64_t{1} << 40 | i));
      if (kind == 1) w->Add(tick, Value::Float(0.25f * static_cast<float>(i * i)));
    }
  };
  for (int kind = 0; kind < 2; ++kind) {
    ChunkWriter used;
    std::string first;
    fill(&used, 10, kind);
    used.Finish(&first);
    ASSERT_GT(used.heap_bytes(), 200u);  // kept for the next chunk
    used = ChunkWriter();
    used.ReleaseMemory();
    EXPECT_EQ(used.heap_bytes(), 0u);
    ChunkWriter fresh;
    std::string again, expected;
    fill(&used, 5000, kind);
    fill(&fresh, 5000, kind);
    used.Finish(&again);
    fresh.Finish(&expected);
    EXPECT_EQ(again, expected) << "kind " << kind;
  }
}

TEST(Codec, AChunkHoldsOneKind) {
  ChunkWriter w;
  w.Add(5, Value::Int(3));
  EXPECT_TRUE(w.Accepts(Value::Int(4)));
  EXPECT_FALSE(w.Accepts(Value::None()));
  EXPECT_FALSE(w.Accepts(Value::Uint(4)));
}

TEST(Codec, StatesRoundTrip) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<std::string> strings;
    strings.reserve(500);
    std::vector<std::pair<uint32_t, Value>> entries;
    std::vector<uint32_t> ids(1 + rng() % 400);
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<uint32_t>(i * 3 + rng() % 3);
    std::shuffle(ids.begin(), ids.end(), rng);
    for (uint32_t id : ids) {
      auto kind = static_cast<ValueKind>(rng() % (static_cast<int>(ValueKind::kString) + 1));
      entries.emplace_back(id, RandomValue(kind, &rng, &strings));
    }
    auto expected = entries;
    std::string blob;
    EncodeState(&entries, &blob);
    std::sort(expected.begin(), expected.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    StateReader r;
    ASSERT_TRUE(r.Open(blob));
    EXPECT_EQ(r.count(), expected.size());
    uint32_t id;
    Value v;
    size_t i = 0;
    while (r.Next(&id, &v)) {
      ASSERT_LT(i, expected.size());
      EXPECT_EQ(id, expected[i].first);
      EXPECT_TRUE(v.SameAs(expected[i].second));
      ++i;
    }
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(i, expected.size());
  }
}

TEST(Codec, SkippingAValueEndsWhereReadingItDoes) {
  // Every kind, then every prefix of each value's bytes: SkipValueBody
  // moves as far as GetValueBody reads, and fails where it fails.
  std::mt19937_64 rng(5);
  std::vector<std::string> strings;
  strings.reserve(200);
  for (int trial = 0; trial < 200; ++trial) {
    auto kind = static_cast<ValueKind>(trial % (static_cast<int>(ValueKind::kString) + 1));
    std::string bytes;
    PutValueBody(RandomValue(kind, &rng, &strings), &bytes);
    for (size_t cut = 0; cut <= bytes.size(); ++cut) {
      const std::string data = bytes.substr(0, cut);
      size_t read = 0, skipped = 0;
      Value v;
      const bool got = GetValueBody(static_cast<uint8_t>(kind), data, &read, &v);
      EXPECT_EQ(SkipValueBody(static_cast<uint8_t>(kind), data, &skipped), got)
          << ValueKindName(kind) << " cut at " << cut;
      if (got) {
        EXPECT_EQ(skipped, read) << ValueKindName(kind);
      }
    }
  }
  size_t pos = 0;
  EXPECT_FALSE(SkipValueBody(7, std::string(8, '\0'), &pos));  // no such kind
  EXPECT_FALSE(SkipValueBody(static_cast<uint8_t>(ValueKind::kVector), "\x05", &pos));
}

TEST(Codec, DamagedBlobsAreReported) {
  ChunkWriter w;
  for (int i = 0; i < 50; ++i) w.Add(i, Value::String("some text"));
  std::string blob;
  w.Finish(&blob);
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 500; ++trial) {
    std::string bad = blob.substr(0, rng() % blob.size());
    if (trial % 2) {
      bad = blob;
      bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    ChunkReader r;
    if (!r.Open(bad, 0)) continue;
    int64_t t;
    Value v;
    size_t n = 0;
    while (r.Next(&t, &v)) ++n;
    EXPECT_LE(n, r.count());
  }
  StateReader s;
  EXPECT_FALSE(s.Open(""));
  EXPECT_FALSE(s.Open(std::string("\x01\x01", 2)));  // format 1 (before the kind moved)
  EXPECT_FALSE(s.Open(std::string("\x03\x01", 2)));  // unknown version
  // Field 5 twice (a delta of 0 after the first entry): refused at the
  // second, where a reader merging by ascending ids would go wrong.
  const std::string twice("\x02\x02\x2a\x02\x02\x04", 6);
  ASSERT_TRUE(s.Open(twice));
  uint32_t id;
  Value v;
  ASSERT_TRUE(s.Next(&id, &v));
  EXPECT_EQ(id, 5u);
  EXPECT_EQ(v.i, 1);
  EXPECT_FALSE(s.Next(&id, &v));
  EXPECT_FALSE(s.ok());
}

// What the format is for: a field that changes every packet by a steady
// step (a position, a simulation time) costs about a byte per change, and
// its regular ticks almost nothing.
TEST(Codec, SteadyChangesPackTightly) {
  ChunkWriter w;
  std::vector<float> in;
  for (int i = 0; i < 256; ++i) {
    const float f = 100.0f + static_cast<float>(i) * (1.0f / 16);  // steady steps
    w.Add(1000 + 2 * i, Value::Float(f));
    in.push_back(f);
  }
  std::string blob;
  w.Finish(&blob);
  EXPECT_LT(blob.size(), 256u + 24) << "steady floats should cost about a byte each";
  ChunkReader r;
  ASSERT_TRUE(r.Open(blob, 1000));
  int64_t t;
  Value v;
  for (int i = 0; i < 256; ++i) {
    ASSERT_TRUE(r.Next(&t, &v));
    EXPECT_EQ(t, 1000 + 2 * i);
    EXPECT_EQ(v.f, in[i]);
  }
  EXPECT_FALSE(r.Next(&t, &v));
  EXPECT_TRUE(r.ok());

  ChunkWriter ticks;
  for (int i = 0; i < 256; ++i) ticks.Add(3 * i, Value::None());
  blob.clear();
  ticks.Finish(&blob);
  EXPECT_LT(blob.size(), 12u) << "a regular run of ticks is a couple of varints";
}

// Runs of equal tick deltas broken at every place decode to the same ticks.
TEST(Codec, TickRunsRoundTrip) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    ChunkWriter w;
    std::vector<int64_t> ticks;
    int64_t tick = -1;
    const int n = 1 + static_cast<int>(rng() % 256);
    int64_t step = static_cast<int64_t>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      if (rng() % 5 == 0) step = static_cast<int64_t>(rng() % 4);
      tick += step;
      ticks.push_back(tick);
      w.Add(tick, Value::Int(i));
    }
    std::string blob;
    w.Finish(&blob);
    ChunkReader r;
    ASSERT_TRUE(r.Open(blob, ticks.front()));
    int64_t t;
    Value v;
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(r.Next(&t, &v)) << "trial " << trial << " change " << i;
      EXPECT_EQ(t, ticks[i]) << "trial " << trial << " change " << i;
      EXPECT_EQ(v.i, i);
    }
    EXPECT_FALSE(r.Next(&t, &v));
    EXPECT_TRUE(r.ok());
  }
}

// The last change at or before a tick, as Next until a change is past it
// finds it: (count at or before, its tick, its value); count 0 when none.
struct Last {
  size_t count = 0;
  int64_t tick = 0;
  Value value;
};
Last LastByNext(const std::string& blob, int64_t first_tick, int64_t at) {
  ChunkReader r;
  Last last;
  if (!r.Open(blob, first_tick)) return last;
  int64_t t;
  Value v;
  while (r.Next(&t, &v) && t <= at) {
    ++last.count;
    last.tick = t;
    last.value = v;
  }
  return last;
}

// LastAtOrBefore at `at`, from a reader just opened, answers as LastByNext
// does, and leaves the reader spent; `what` names the case.
void ExpectLastAsNext(const std::string& blob, int64_t first_tick, int64_t at,
                      const std::string& what) {
  const Last want = LastByNext(blob, first_tick, at);
  ChunkReader r;
  ASSERT_TRUE(r.Open(blob, first_tick));
  int64_t got_tick = -999;
  Value got;
  const size_t count = r.LastAtOrBefore(at, &got_tick, &got);
  ASSERT_TRUE(r.ok()) << what << " at " << at;
  ASSERT_EQ(count, want.count) << what << " at " << at;
  if (count > 0) {
    EXPECT_EQ(got_tick, want.tick) << what << " at " << at;
    EXPECT_TRUE(got.SameAs(want.value)) << what << " at " << at;
  }
  int64_t t;
  Value v;
  EXPECT_FALSE(r.Next(&t, &v)) << "spent";
}

// LastAtOrBefore answers as Next does, for every kind (quantized floats and
// vectors too), with runs of equal deltas (0 among them) crossing the tick
// asked, at every tick from before the first change to past the last.
TEST(Codec, LastAtOrBeforeAnswersAsNextDoes) {
  std::mt19937_64 rng(11);
  const FloatQuantizer q{-100.0f, 100.0f, 1.0f / 1023.0f, 10};
  for (int k = 0; k <= static_cast<int>(ValueKind::kString); ++k) {
    const ValueKind kind = static_cast<ValueKind>(k);
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<std::string> strings;
      strings.reserve(300);
      ChunkWriter w;
      if (trial % 2 == 1 && (kind == ValueKind::kFloat || kind == ValueKind::kVector)) {
        w.SetQuantizer(&q);
      }
      int64_t tick = static_cast<int64_t>(rng() % 100) - 1;
      const int64_t first = tick;
      const int n = 1 + static_cast<int>(rng() % 256);
      int64_t step = static_cast<int64_t>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        if (i > 0) {
          if (rng() % 6 == 0) step = static_cast<int64_t>(rng() % 4);
          tick += step;
        }
        Value v = RandomValue(kind, &rng, &strings);
        if (w.empty() || trial % 2 == 0 || kind != ValueKind::kFloat) {
          w.Add(tick, v);
        } else {
          // On the quantizer's grid mostly (stored as units), now and then off it.
          const float u = static_cast<float>(rng() % 1024);
          w.Add(tick, rng() % 8 == 0 ? v : Value::Float(q.low + (q.high - q.low) * (u * q.mul)));
        }
      }
      std::string blob;
      w.Finish(&blob);
      const std::string what = "kind " + std::to_string(k) + " trial " + std::to_string(trial);
      for (int64_t at = first - 2; at <= tick + 2; ++at) ExpectLastAsNext(blob, first, at, what);
    }
  }
}

// Deltas of one varint byte (below 64) and of more (64 and up), alone and in
// runs, mixed: LastAtOrBefore takes the short ones itself and the rest
// through the general reader, and answers as Next does at every tick.
TEST(Codec, LastAtOrBeforeCrossesShortAndLongDeltas) {
  std::mt19937_64 rng(5);
  const int64_t deltas[] = {0, 1, 2, 63, 64, 65, 127, 128, 1000};
  for (int trial = 0; trial < 30; ++trial) {
    ChunkWriter w;
    int64_t tick = static_cast<int64_t>(rng() % 50);
    const int64_t first = tick;
    int64_t step = 0;
    for (int i = 0; i < 120; ++i) {
      if (i > 0) {
        if (rng() % 4 == 0) step = deltas[rng() % 9];
        tick += step;
      }
      w.Add(tick, Value::Int(static_cast<int64_t>(rng() % 1000)));
    }
    std::string blob;
    w.Finish(&blob);
    const std::string what = "trial " + std::to_string(trial);
    for (int64_t at = first - 1; at <= tick + 1; ++at) ExpectLastAsNext(blob, first, at, what);
  }
}

// Damage at or before the tick asked is reported; a start tick far below
// the tick asked (int64's whole range apart) neither overflows nor loops.
TEST(Codec, LastAtOrBeforeOnDamage) {
  ChunkWriter w;
  for (int i = 0; i < 50; ++i) w.Add(10 + 3 * i, Value::Int(i));
  std::string blob;
  w.Finish(&blob);
  ChunkReader r;
  int64_t t;
  Value v;
  ASSERT_TRUE(r.Open(blob, INT64_MIN));
  EXPECT_EQ(r.LastAtOrBefore(INT64_MAX, &t, &v), 50u);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(t, INT64_MIN + 3 * 49);
  EXPECT_EQ(v.i, 49);
  // Cut inside the values: the last value at or before the tick is gone.
  const std::string cut = blob.substr(0, blob.size() - 1);  // the reader views it
  ASSERT_TRUE(r.Open(cut, 10));
  EXPECT_EQ(r.LastAtOrBefore(1000, &t, &v), 0u);
  EXPECT_FALSE(r.ok());
}

// Quantized floats are stored as their units when that is shorter; values
// the quantizer cannot give (escapes) survive too, bit for bit.
TEST(Codec, QuantizedFloatsRoundTripAsUnits) {
  std::mt19937_64 rng(9);
  const FloatQuantizer q{0.0f, 256.0f, 1.0f / 8191.0f, 13};
  for (int trial = 0; trial < 200; ++trial) {
    const bool vectors = trial % 2 == 1;
    ChunkWriter w;
    w.SetQuantizer(&q);
    std::vector<std::pair<int64_t, Value>> in;
    int64_t units = static_cast<int64_t>(rng() % 8192);
    const int n = 1 + static_cast<int>(rng() % 256);
    for (int i = 0; i < n; ++i) {
      units = std::clamp<int64_t>(units + static_cast<int64_t>(rng() % 41) - 20, 0, 8191);
      float f = QuantizedFromUnits(q.low, q.high, q.mul, static_cast<uint32_t>(units));
      if (rng() % 25 == 0) f = 0.1f + static_cast<float>(i);  // not a quantizer value
      Value v = Value::Float(f);
      if (vectors) {
        const float xs[3] = {f, QuantizedFromUnits(q.low, q.high, q.mul, 17), -1.5f};
        v = Value::Vector(xs, 3);
      }
      w.Add(2 * i, v);
      in.emplace_back(2 * i, v);
    }
    std::string blob;
    w.Finish(&blob);
    ChunkReader r;
    ASSERT_TRUE(r.Open(blob, 0));
    int64_t t;
    Value v;
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(r.Next(&t, &v)) << "trial " << trial << " value " << i;
      EXPECT_EQ(t, in[i].first);
      EXPECT_TRUE(v.SameAs(in[i].second)) << "trial " << trial << " value " << i;
    }
    EXPECT_FALSE(r.Next(&t, &v));
    EXPECT_TRUE(r.ok());
  }
}

TEST(Codec, SteadyQuantizedMotionCostsAboutAByte) {
  // A unit walking at a steady speed: its position in 13-bit units over
  // [0, 256] moves ~640 units a packet, which as raw floats costs 3+ bytes.
  const FloatQuantizer q{0.0f, 256.0f, 1.0f / 8191.0f, 13};
  ChunkWriter w;
  w.SetQuantizer(&q);
  for (int i = 0; i < 24; ++i) {
    w.Add(2 * i, Value::Float(QuantizedFromUnits(q.low, q.high, q.mul, 100 + 300 * i)));
  }
  std::string blob;
  w.Finish(&blob);
  // 24 values at a byte each, the 12-byte quantizer, ~10 bytes of header,
  // first value and first step; as raw floats they would take 72 or more.
  EXPECT_LE(blob.size(), 24u + 12 + 10);
}

// A state stored as its difference from another gives back the same state.
TEST(Codec, StateDifferencesMergeBack) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::string> strings;
    strings.reserve(2000);
    std::vector<std::pair<uint32_t, Value>> base, now;
    for (uint32_t f = 0; f < 60; ++f) {
      if (rng() % 3 == 0) continue;
      auto kind = static_cast<ValueKind>(1 + rng() % static_cast<int>(ValueKind::kString));
      Value v = RandomValue(kind, &rng, &strings);
      base.emplace_back(f, v);
      // Most values stay; some change; some fields are new.
      now.emplace_back(f, rng() % 4 == 0 ? RandomValue(kind, &rng, &strings) : v);
    }
    for (uint32_t f = 60; f < 60 + rng() % 5; ++f) now.emplace_back(f, Value::Int(f));
    std::string base_blob, whole, diff_blob, merged;
    EncodeState(&base, &base_blob);
    EncodeState(&now, &whole);
    std::vector<std::pair<uint32_t, Value>> diff;
    ASSERT_TRUE(DiffState(now, base_blob, &diff));
    EXPECT_LE(diff.size(), now.size());
    EncodeState(&diff, &diff_blob);
    ASSERT_TRUE(MergeStates(base_blob, diff_blob, &merged));
    EXPECT_EQ(merged, whole) << "trial " << trial;
    if (!base.empty()) {
      // A field the base has and the new state lacks cannot be a difference.
      auto fewer = now;
      fewer.erase(fewer.begin());
      EXPECT_FALSE(DiffState(fewer, base_blob, &diff));
    }
  }
}

}  // namespace
}  // namespace gem
