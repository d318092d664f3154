// Every field of every entity at every golden snapshot of
// dota2_haste_nekit equals the golden decode.
//
// Values compare exactly, except floats: within 1e-5 relative, and for
// quantized floats also within 4 float32 epsilons of the range's magnitude
// (the golden computes (high-low)*u*mul, gem high-low times (u*mul) as the
// golden README prescribes; near zero the two differ by one rounding of a
// term as large as the range).
#include <cfloat>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/parser.h"
#include "gtest/gtest.h"
#include "tests/golden.h"
#include "tests/json.h"
#include "tests/replay_fixture.h"
#include "tests/test_env.h"
#include "tools/dump/entity_json.h"
#include "tools/dump/snapshot_sink.h"

namespace gem::testing {
namespace {

using Key = std::pair<uint32_t, int64_t>;  // (req_tick, entity index)

struct Snapshots {
  std::map<Key, Json> by_key;
  std::vector<uint32_t> ticks;
};

bool LoadGolden(const std::string& fixture, Snapshots* out, std::string* error) {
  std::string text;
  std::string path = GoldenFixtureDir(fixture) + "/entities_snapshots.jsonl.gz";
  if (!ReadGzip(path, &text)) {
    *error = "cannot read " + path;
    return false;
  }
  std::set<uint32_t> ticks;
  for (const std::string& line : SplitLines(text)) {
    Json j;
    if (!ParseJson(line, &j, error)) return false;
    uint32_t req = static_cast<uint32_t>(std::stoul(j.Get("req_tick")->text));
    int64_t index = std::stoll(j.Get("index")->text);
    if (req != dump::kFinalSnapshot) ticks.insert(req);
    out->by_key[{req, index}] = std::move(j);
  }
  out->ticks.assign(ticks.begin(), ticks.end());
  return true;
}

// Our snapshots, through gem-dump's own JSON writer.
void TakeSnapshot(const Parser& p, uint32_t req, uint32_t tick, uint32_t net,
                  Snapshots* out) {
  std::string line;
  std::string error;
  for (int i = 0; i < EntityManager::kMaxEntities; ++i) {
    const Entity* e = p.entities().Get(i);
    if (e == nullptr) continue;
    line.clear();
    dump::AppendEntityJson(p.schema(), *e, req, tick, net, &line);
    Json j;
    ASSERT_TRUE(ParseJson(line, &j, &error)) << error << ": " << line;
    out->by_key[{req, i}] = std::move(j);
  }
}

bool FloatsMatch(double a, double b, const Field* field) {
  if (a == b) return true;
  double diff = std::fabs(a - b);
  if (diff <= 1e-5 * std::max(std::fabs(a), std::fabs(b))) return true;
  if (field != nullptr && field->decoder.float_encoding == FloatEncoding::kQuantized) {
    double range = std::max(std::fabs(field->decoder.quantized.low),
                            std::fabs(field->decoder.quantized.high));
    return diff <= 4 * FLT_EPSILON * range;
  }
  return false;
}

bool ValuesMatch(const Json& g, const Json& m, const Field* field) {
  if (g.type == Json::Type::kArray || m.type == Json::Type::kArray) {
    if (g.type != m.type || g.items.size() != m.items.size()) return false;
    for (size_t i = 0; i < g.items.size(); ++i) {
      if (!ValuesMatch(g.items[i], m.items[i], field)) return false;
    }
    return true;
  }
  if (g.type != m.type) return false;
  switch (g.type) {
    case Json::Type::kNull: return true;
    case Json::Type::kBool: return g.b == m.b;
    case Json::Type::kString: return g.text == m.text;
    case Json::Type::kNumber:
      if (g.is_integer() && m.is_integer()) return g.text == m.text;
      return FloatsMatch(g.number(), m.number(), field);
    default: return false;
  }
}

std::string Text(const Json* j) {
  if (j == nullptr) return "<absent>";
  switch (j->type) {
    case Json::Type::kNull: return "null";
    case Json::Type::kBool: return j->b ? "true" : "false";
    case Json::Type::kArray: {
      std::string s = "[";
      for (const Json& x : j->items) s += Text(&x) + ",";
      return s + "]";
    }
    default: return j->text;
  }
}

const Field* FindField(const Schema& schema, const std::string& class_name,
                       const std::string& path_text) {
  FieldPath path;
  const Serializer* s = schema.FindSerializer(class_name);
  if (s == nullptr || !FieldPath::Parse(path_text, &path)) return nullptr;
  ResolvedField r;
  return Schema::Resolve(*s, path, &r) ? r.field : nullptr;
}

TEST(GoldenState, NekitEveryFieldOfEveryEntityAtEverySnapshot) {
  GEM_REQUIRE_FIXTURE(replay, "dota2_haste_nekit.dem");
  Snapshots golden;
  std::string error;
  ASSERT_TRUE(LoadGolden("dota2_haste_nekit", &golden, &error)) << error;
  ASSERT_EQ(golden.ticks, (std::vector<uint32_t>{14, 92, 299, 600, 1200, 1799}));

  Snapshots ours;
  const Parser* current = nullptr;
  dump::SnapshotSink sink(golden.ticks, [&](uint32_t req, uint32_t tick, uint32_t net) {
    TakeSnapshot(*current, req, tick, net, &ours);
  });
  auto parsed = ParseReplayFile(replay, &sink, [&](const Parser* p) { current = p; });
  ASSERT_TRUE(parsed->status.ok()) << parsed->status.ToString();
  const Parser& p = *parsed->parser;
  TakeSnapshot(p, dump::kFinalSnapshot,
               static_cast<uint32_t>(p.metadata().last_tick), p.current().net_tick, &ours);

  // The same entities at the same snapshots.
  std::vector<Key> missing, extra;
  for (const auto& [k, v] : golden.by_key) {
    if (!ours.by_key.count(k)) missing.push_back(k);
  }
  for (const auto& [k, v] : ours.by_key) {
    if (!golden.by_key.count(k)) extra.push_back(k);
  }
  EXPECT_TRUE(missing.empty()) << missing.size() << " golden entities missing, first: req "
                               << missing[0].first << " index " << missing[0].second;
  EXPECT_TRUE(extra.empty()) << extra.size() << " entities not in the golden";

  size_t fields = 0, mismatches = 0;
  std::string report;
  auto note = [&](const std::string& what) {
    if (++mismatches <= 20) report += what + "\n";
  };
  for (const auto& [key, g] : golden.by_key) {
    auto it = ours.by_key.find(key);
    if (it == ours.by_key.end()) continue;
    const Json& m = it->second;
    const std::string where = "req " + std::to_string(key.first) + " index " +
                              std::to_string(key.second) + " " + g.Get("class")->text;
    for (const char* attr : {"tick", "net_tick", "serial", "class"}) {
      if (Text(g.Get(attr)) != Text(m.Get(attr))) {
        note(where + ": " + attr + " golden " + Text(g.Get(attr)) + " ours " + Text(m.Get(attr)));
      }
    }
    std::map<std::string, const Json*> our_fields;
    for (const Json& f : m.Get("fields")->items) our_fields[f.Get("path")->text] = &f;
    for (const Json& gf : g.Get("fields")->items) {
      ++fields;
      const std::string& path = gf.Get("path")->text;
      auto jt = our_fields.find(path);
      if (jt == our_fields.end()) {
        note(where + ": field " + path + " " + gf.Get("name")->text + " missing");
        continue;
      }
      const Json& mf = *jt->second;
      for (const char* attr : {"name", "type", "enc", "bits"}) {
        if (Text(gf.Get(attr)) != Text(mf.Get(attr))) {
          note(where + ": " + path + " " + attr + " golden " + Text(gf.Get(attr)) +
               " ours " + Text(mf.Get(attr)));
        }
      }
      const Field* field = FindField(p.schema(), g.Get("class")->text, path);
      if (!ValuesMatch(*gf.Get("v"), *mf.Get("v"), field)) {
        note(where + ": " + path + " " + gf.Get("name")->text + " golden " +
             Text(gf.Get("v")) + " ours " + Text(mf.Get("v")));
      }
    }
  }
  EXPECT_EQ(fields, 49202u) << "the golden snapshots hold 49202 field values";
  EXPECT_EQ(mismatches, 0u) << report;
  std::printf("golden fields compared: %zu, mismatches: %zu\n", fields, mismatches);
}

}  // namespace
}  // namespace gem::testing
