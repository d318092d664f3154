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

#include <nlohmann/json.hpp>

#include "core/parser/parser.h"
#include "gtest/gtest.h"
#include "tests/support/golden.h"
#include "tests/support/replay_fixture.h"
#include "tests/support/test_env.h"
#include "tools/dump/entity_json.h"
#include "tools/dump/snapshot_sink.h"

namespace gem::testing {
namespace {

using Json = nlohmann::json;
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
    Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      *error = "not JSON: " + line.substr(0, 120);
      return false;
    }
    uint32_t req = j.at("req_tick").get<uint32_t>();
    int64_t index = j.at("index").get<int64_t>();
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
  for (int i = 0; i < EntityManager::kMaxEntities; ++i) {
    const Entity* e = p.entities().Get(i);
    if (e == nullptr) continue;
    line.clear();
    dump::AppendEntityJson(p.schema(), *e, req, tick, net, &line);
    Json j = Json::parse(line, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "not JSON: " << line;
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
  if (g.is_array() || m.is_array()) {
    if (!g.is_array() || !m.is_array() || g.size() != m.size()) return false;
    for (size_t i = 0; i < g.size(); ++i) {
      if (!ValuesMatch(g[i], m[i], field)) return false;
    }
    return true;
  }
  if (g.is_number() && m.is_number()) {
    if (g.is_number_integer() && m.is_number_integer()) return g == m;
    return FloatsMatch(g.get<double>(), m.get<double>(), field);
  }
  return g.type() == m.type() && g == m;
}

// A member's text for comparing and reporting: a string as it is,
// anything else as JSON.
std::string Text(const Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return "<absent>";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// The schema's resolution of a class's field path; false when it has none.
bool FindField(const Schema& schema, const std::string& class_name,
               const std::string& path_text, ResolvedField* r) {
  FieldPath path;
  const Serializer* s = schema.FindSerializer(class_name);
  return s != nullptr && FieldPath::Parse(path_text, &path) && Schema::Resolve(*s, path, r);
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
                              std::to_string(key.second) + " " + Text(g, "class");
    for (const char* attr : {"tick", "net_tick", "serial", "class"}) {
      if (Text(g, attr) != Text(m, attr)) {
        note(where + ": " + attr + " golden " + Text(g, attr) + " ours " + Text(m, attr));
      }
    }
    std::map<std::string, const Json*> our_fields;
    for (const Json& f : m.at("fields")) our_fields[Text(f, "path")] = &f;
    for (const Json& gf : g.at("fields")) {
      ++fields;
      const std::string path = Text(gf, "path");
      auto jt = our_fields.find(path);
      if (jt == our_fields.end()) {
        note(where + ": field " + path + " " + Text(gf, "name") + " missing");
        continue;
      }
      const Json& mf = *jt->second;
      for (const char* attr : {"type", "enc", "bits"}) {
        if (Text(gf, attr) != Text(mf, attr)) {
          note(where + ": " + path + " " + attr + " golden " + Text(gf, attr) + " ours " +
               Text(mf, attr));
        }
      }
      // The reference names a field by its var_names alone: our short
      // name. Our name is the same but where two fields of a serializer
      // share a var_name (schema.h), which no class of nekit's entities has.
      ResolvedField r;
      const bool known = FindField(p.schema(), Text(g, "class"), path, &r);
      if (!known || Text(gf, "name") != r.short_name || Text(mf, "name") != r.name ||
          r.name != r.short_name) {
        note(where + ": " + path + " name golden " + Text(gf, "name") + " ours " +
             Text(mf, "name") + " (short name " + r.short_name + ")");
      }
      if (!ValuesMatch(gf.at("v"), mf.at("v"), known ? r.field : nullptr)) {
        note(where + ": " + path + " " + Text(gf, "name") + " golden " + Text(gf, "v") +
             " ours " + Text(mf, "v"));
      }
    }
  }
  EXPECT_EQ(fields, 49202u) << "the golden snapshots hold 49202 field values";
  EXPECT_EQ(mismatches, 0u) << report;
  std::printf("golden fields compared: %zu, mismatches: %zu\n", fields, mismatches);
}

}  // namespace
}  // namespace gem::testing
