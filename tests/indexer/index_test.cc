// gem-index on the modern Dota fixtures, checked from the database alone:
// plain SQL for string tables, the combat log and entity lifetimes; the
// storage codec for the field changes, which must reproduce every golden
// snapshot of dota2_haste_nekit at the snapshot's tick.
#include <sqlite3.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "gtest/gtest.h"
#include "indexer/index_schema.h"
#include "indexer/indexer.h"
#include "tests/support/golden.h"
#include "tests/support/test_env.h"
#include "tools/cli/crc32.h"

namespace gem::testing {
namespace {

const char* kAuto = "dota2_haste_auto-20240102-2233-start";
const char* kNekit = "dota2_haste_nekit";

// Indexes a fixture once per test binary into the test's temporary dir.
std::string IndexOf(const std::string& stem) {
  static std::map<std::string, std::string> built;
  auto it = built.find(stem);
  if (it != built.end()) return it->second;
  std::string replay = FixturePath(stem + ".dem");
  if (replay.empty()) return "";
  const char* tmp = getenv("TEST_TMPDIR");
  std::string out = std::string(tmp ? tmp : "/tmp") + "/" + stem + ".db";
  index::IndexOptions options;
  options.force = true;
  index::IndexReport report;
  Status s = index::IndexReplay(replay, out, options, &report);
  EXPECT_TRUE(s.ok()) << s.ToString();
  built[stem] = s.ok() ? out : "";
  return built[stem];
}

// A whole file's bytes ("" when it cannot be read).
std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class Sql {
 public:
  explicit Sql(const std::string& path) {
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  }
  ~Sql() { sqlite3_close(db_); }
  // Rows of a query as text cells (blobs as raw bytes).
  std::vector<std::vector<std::string>> Rows(const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db_) << " in " << sql;
    while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        const void* p = sqlite3_column_blob(st, c);
        int n = sqlite3_column_bytes(st, c);
        row.emplace_back(p ? static_cast<const char*>(p) : "", n);
      }
      rows.push_back(std::move(row));
    }
    sqlite3_finalize(st);
    return rows;
  }
  std::string One(const std::string& sql) {
    auto rows = Rows(sql);
    return rows.empty() || rows[0].empty() ? "<none>" : rows[0][0];
  }
  sqlite3* db() { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

#define GEM_REQUIRE_INDEX(var, stem)                                     \
  std::string var = IndexOf(stem);                                       \
  if (var.empty()) {                                                     \
    GTEST_SKIP() << "SKIPPED: fixture " << stem << ".dem not found in " \
                 << FixturesDir();                                       \
  }

// Every change in the index, through the codec alone: each interval's
// rows (keyframes blocks) and the runs they name (changes rows). visit(
// entity, field, tick, value) in each entity's interval order; a field's
// changes in tick order. `keep` holds the bytes values point into.
template <typename Visit>
void EachChange(Sql* sql, std::deque<std::string>* keep, Visit&& visit) {
  std::map<int64_t, std::string> pages;
  for (auto& row : sql->Rows("SELECT id, data FROM changes")) pages[std::stoll(row[0])] = row[1];
  KeyframeDecompressor d;
  for (auto& block_row : sql->Rows("SELECT first_entity, tick, data FROM keyframes ORDER BY key")) {
    KeyframeBlock block;
    ASSERT_TRUE(block.Open(block_row[2], std::stoll(block_row[0]), &d));
    const int64_t k = std::stoll(block_row[1]);
    for (int64_t e = block.first_entity(); e <= block.last_entity(); ++e) {
      std::string_view bytes;
      if (!block.Find(e, &bytes)) continue;
      keep->emplace_back(bytes);
      KeyframeReader r;
      ASSERT_TRUE(r.Open(keep->back(), k));
      uint32_t field;
      bool runs;
      uint64_t count;
      while (r.NextLater(&field, &runs, &count)) {
        int64_t t;
        Value v;
        if (!runs) {
          while (r.NextLogged(&t, &v)) visit(e, field, t, v);
          continue;
        }
        RunRef ref;
        while (r.NextRun(&ref)) {
          ASSERT_TRUE(pages.count(ref.page));
          const std::string& page = pages[ref.page];
          ASSERT_LE(ref.offset + ref.length, page.size());
          keep->emplace_back(page.substr(ref.offset, ref.length));
          ChunkReader cr;
          ASSERT_TRUE(cr.Open(keep->back(), ref.first_tick));
          while (cr.Next(&t, &v)) visit(e, field, t, v);
          ASSERT_TRUE(cr.ok());
        }
      }
      ASSERT_TRUE(r.ok());
    }
  }
}

TEST(Index, IdentifiesItselfAndRecordsTheReplay) {
  GEM_REQUIRE_INDEX(path, kNekit);
  Sql sql(path);
  EXPECT_EQ(sql.One("PRAGMA application_id"), std::to_string(index::kApplicationId));
  EXPECT_EQ(sql.One("PRAGMA user_version"), std::to_string(index::kSchemaVersion));
  EXPECT_EQ(sql.One("PRAGMA journal_mode"), "delete");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='source_sha256'"),
            "7c4a064580da621ef963197715567ecf09122f9e7f78287fb7a607f876aeb534");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='source_bytes'"), "596539");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='game'"), "dota2");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='game_build'"), "5361");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='map'"), "start");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='match_id'"), "6660075552");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='playback_ticks'"), "1923");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='last_tick'"), "1923");
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='truncated'"), "0");
  for (const char* key : {"schema_version", "indexer_version", "network_protocol", "server",
                          "game_mode", "league_id", "winner", "field_changes"}) {
    EXPECT_NE(sql.One(std::string("SELECT value FROM meta WHERE key='") + key + "'"), "<none>")
        << key;
  }
  // field_changes counts the changes the rows and runs hold.
  std::deque<std::string> keep;
  uint64_t changes = 0;
  EachChange(&sql, &keep, [&](int64_t, uint32_t, int64_t, const Value&) { ++changes; });
  EXPECT_EQ(sql.One("SELECT value FROM meta WHERE key='field_changes'"), std::to_string(changes));
  EXPECT_GT(changes, 1000u);
}

TEST(Index, LiveEntitiesAtTheEnd) {
  for (auto [stem, live] : {std::pair<const char*, int>{kAuto, 883}, {kNekit, 78}}) {
    GEM_REQUIRE_INDEX(path, stem);
    Sql sql(path);
    EXPECT_EQ(sql.One("SELECT count(*) FROM entities WHERE deleted_tick IS NULL"),
              std::to_string(live))
        << stem;
  }
}

// The final string tables, from SQL alone, against the golden files.
void CheckFinalStringTables(const std::string& stem, size_t golden_jump_errors) {
  GEM_REQUIRE_INDEX(path, stem);
  Sql sql(path);
  auto rows = sql.Rows(
      "SELECT t.name, e.idx, e.key, e.value FROM string_table_entries e "
      "JOIN string_tables t USING(table_id) "
      "WHERE e.seq = (SELECT max(seq) FROM string_table_entries x "
      "               WHERE x.table_id = e.table_id AND x.idx = e.idx)");
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> ours;
  for (auto& r : rows) ours[{r[0], r[1]}] = r;
  std::vector<std::vector<std::string>> golden;
  ASSERT_TRUE(ReadTsv(GoldenFixtureDir(stem) + "/string_table_entries.tsv", &golden));
  EXPECT_EQ(ours.size(), golden.size());
  size_t equal = 0, differ = 0;
  char crc[16];
  for (const auto& g : golden) {
    auto it = ours.find({g[0], g[1]});
    ASSERT_NE(it, ours.end()) << g[0] << "[" << g[1] << "]";
    std::string key;
    AppendJsonString(it->second[2], &key);
    std::snprintf(crc, sizeof crc, "%08x", cli::Crc32(it->second[3]));
    if (key == g[2] && std::to_string(it->second[3].size()) == g[3] && crc == g[4]) {
      ++equal;
    } else {
      ++differ;  // the golden's absolute jumps, see golden_tables_test
    }
  }
  EXPECT_EQ(differ, golden_jump_errors) << stem;
  std::printf("%s: %zu final string-table entries equal the golden from SQL\n", stem.c_str(),
              equal);
}

TEST(Index, FinalStringTablesFromSqlEqualGolden) {
  CheckFinalStringTables(kNekit, 0);
  CheckFinalStringTables(kAuto, 2);
}

TEST(Index, AutoCombatLogHas36RowsWithNames) {
  GEM_REQUIRE_INDEX(path, kAuto);
  Sql sql(path);
  EXPECT_EQ(sql.One("SELECT count(*) FROM combat_log"), "36");
  EXPECT_EQ(sql.One("SELECT count(*) FROM combat_log WHERE type_name = "
                    "'DOTA_COMBATLOG_MODIFIER_ADD'"),
            "16");
  EXPECT_EQ(sql.One("SELECT count(*) FROM combat_log WHERE type_name = "
                    "'DOTA_COMBATLOG_MODIFIER_REMOVE'"),
            "20");
  EXPECT_EQ(sql.One("SELECT count(*) FROM combat_log WHERE inflictor_name LIKE 'modifier_%' "
                    "AND target_name <> '' AND attacker_name <> ''"),
            "36");
}

TEST(Index, TicksAreMonotonicAndSignonComesFirst) {
  GEM_REQUIRE_INDEX(path, kNekit);
  Sql sql(path);
  // nekit's signon packets carry tick 4005; they are versioned before play.
  EXPECT_EQ(sql.One("SELECT min(tick) FROM string_table_entries"),
            std::to_string(index::kSignonTick));
  EXPECT_EQ(sql.One("SELECT max(tick) <= 1923 AND max(tick) > 1000 FROM string_table_entries"),
            "1");
  EXPECT_EQ(sql.One("SELECT count(*) FROM string_table_entries a JOIN string_table_entries b "
                    "ON b.seq = a.seq + 1 WHERE b.tick < a.tick"),
            "0");
  // Each field's changes, interval after interval, never go back in time.
  std::map<std::pair<int64_t, uint32_t>, int64_t> last;
  std::deque<std::string> keep;
  EachChange(&sql, &keep, [&](int64_t e, uint32_t f, int64_t t, const Value&) {
    auto [it, is_new] = last.try_emplace({e, f}, t);
    EXPECT_TRUE(is_new || it->second <= t) << e << " " << f << " " << t;
    it->second = t;
  });
  EXPECT_GT(last.size(), 100u);
}

// The indexer analyzes every table but changes and keyframes (read by
// their keys alone, and most of the file): each has what ANALYZE
// computes.
TEST(Index, PlannerStatisticsEqualAnalyze) {
  GEM_REQUIRE_INDEX(path, kAuto);
  const std::string copy = path + ".analyze-copy.db";
  {
    std::ifstream in(path, std::ios::binary);
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(copy.c_str(), &db), SQLITE_OK);
  auto stat = [&](const char* sql) {
    sqlite3_stmt* st = nullptr;
    std::string out;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    while (sqlite3_step(st) == SQLITE_ROW) {
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        const unsigned char* t = sqlite3_column_text(st, c);
        out += t ? reinterpret_cast<const char*>(t) : "NULL";
        out += c + 1 < sqlite3_column_count(st) ? "|" : "\n";
      }
    }
    sqlite3_finalize(st);
    return out;
  };
  const char* all = "SELECT tbl, idx, stat FROM sqlite_stat1 WHERE tbl NOT IN "
                    "('changes', 'keyframes') ORDER BY tbl, idx";
  const std::string written = stat(all);
  EXPECT_NE(written.find("entities|entities_by_class|"), std::string::npos) << written;
  EXPECT_EQ(stat("SELECT count(*) FROM sqlite_stat1 WHERE tbl IN ('changes', 'keyframes')"),
            "0\n");
  ASSERT_EQ(sqlite3_exec(db, "ANALYZE;", nullptr, nullptr, nullptr), SQLITE_OK);
  EXPECT_EQ(written, stat(all));
  sqlite3_close(db);
  std::remove(copy.c_str());
}

// ---- Field values through the codec -----------------------------------

using FieldValues = std::map<uint32_t, Value>;

// Every entity's changes (EachChange), read once: (field, tick, value),
// each field's in tick order; strings point into `keep`.
struct EntityChange {
  uint32_t field;
  int64_t tick;
  Value value;
};
using AllChanges = std::map<int64_t, std::vector<EntityChange>>;
AllChanges ReadAllChanges(Sql* sql, std::deque<std::string>* keep) {
  AllChanges out;
  EachChange(sql, keep, [&](int64_t e, uint32_t f, int64_t t, const Value& v) {
    out[e].push_back({f, t, v});
  });
  return out;
}

// An entity's fields as of `tick`: its creation state, then every change
// at or before the tick (ReadAllChanges: not the rows' states).
FieldValues StateAt(Sql* sql, const AllChanges& changes, int64_t entity, int64_t tick,
                    std::vector<std::string>* keep) {
  FieldValues out;
  auto state = sql->Rows("SELECT data, base FROM entity_states WHERE entity = " +
                         std::to_string(entity));
  EXPECT_EQ(state.size(), 1u);
  keep->push_back(state[0][0]);
  if (!state[0][1].empty()) {
    // A difference from a whole state (base's row has no base of its own).
    auto base = sql->Rows("SELECT data, base FROM entity_states WHERE entity = " + state[0][1]);
    EXPECT_EQ(base.size(), 1u);
    EXPECT_EQ(base[0][1], "");
    std::string merged;
    EXPECT_TRUE(MergeStates(base[0][0], keep->back(), &merged));
    keep->push_back(merged);
  }
  StateReader sr;
  EXPECT_TRUE(sr.Open(keep->back()));
  uint32_t field;
  Value v;
  while (sr.Next(&field, &v)) out[field] = v;
  EXPECT_TRUE(sr.ok());
  if (auto it = changes.find(entity); it != changes.end()) {
    for (const EntityChange& c : it->second) {
      if (c.tick <= tick) out[c.field] = c.value;
    }
  }
  return out;
}

std::string JsonOf(const Value& v) {
  std::string s;
  v.AppendJson(&s);
  return s;
}

// A JSON value's text: a string as it is, anything else as JSON.
std::string Text(const nlohmann::json& j) {
  return j.is_string() ? j.get<std::string>() : j.dump();
}

bool Matches(const nlohmann::json& g, const Value& v) {
  if (g.is_null()) return v.is_none();
  const nlohmann::json ours = nlohmann::json::parse(JsonOf(v), nullptr, false);
  if (ours.is_discarded()) return false;
  auto num = [](const nlohmann::json& a, const nlohmann::json& b) {
    if (!a.is_number() || !b.is_number()) return false;
    if (a.is_number_integer() && b.is_number_integer()) return a == b;
    double x = a.get<double>(), y = b.get<double>();
    return x == y || std::fabs(x - y) <= 1e-5 * std::max(std::fabs(x), std::fabs(y)) ||
           std::fabs(x - y) <= 4 * FLT_EPSILON * 1000;  // quantized: see golden_state_test
  };
  if (g.is_array()) {
    if (!ours.is_array() || ours.size() != g.size()) return false;
    for (size_t i = 0; i < g.size(); ++i) {
      if (!num(g[i], ours[i])) return false;
    }
    return true;
  }
  if (g.is_number()) return num(g, ours);
  return g == ours;
}

TEST(Index, ChangesReproduceEveryNekitGoldenSnapshot) {
  GEM_REQUIRE_INDEX(path, kNekit);
  std::string text;
  ASSERT_TRUE(ReadGzip(GoldenFixtureDir(kNekit) + "/entities_snapshots.jsonl.gz", &text));
  Sql sql(path);
  // field ids by (class name, path)
  std::map<std::pair<std::string, std::string>, uint32_t> field_ids;
  for (auto& r : sql.Rows("SELECT c.name, f.path, f.field_id FROM fields f "
                          "JOIN classes c USING(class_id)")) {
    field_ids[{r[0], r[1]}] = static_cast<uint32_t>(std::stoul(r[2]));
  }
  const std::string last_tick = sql.One("SELECT value FROM meta WHERE key='last_tick'");
  size_t compared = 0, bad = 0, absent = 0;
  std::string report;
  std::vector<std::string> keep;
  std::deque<std::string> rows_kept;  // (values point into them: no moves)
  const AllChanges changes = ReadAllChanges(&sql, &rows_kept);
  for (const std::string& line : SplitLines(text)) {
    const nlohmann::json g = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(g.is_discarded()) << "not JSON: " << line.substr(0, 120);
    // The snapshot's tick; the final snapshot is the state at the last tick.
    std::string tick = Text(g.at("req_tick")) == "4294967295" ? last_tick : Text(g.at("tick"));
    const std::string cls = Text(g.at("class"));
    auto ent = sql.Rows(
        "SELECT e.entity FROM entities e JOIN classes c USING(class_id) WHERE e.ent_index = " +
        Text(g.at("index")) + " AND e.serial = " + Text(g.at("serial")) + " AND c.name = '" +
        cls + "' AND e.created_tick <= " + tick +
        " AND (e.deleted_tick IS NULL OR e.deleted_tick > " + tick + ")");
    if (ent.size() != 1) {
      ++absent;
      if (absent <= 5) report += "no live entity for " + line.substr(0, 120) + "\n";
      continue;
    }
    keep.clear();
    FieldValues values = StateAt(&sql, changes, std::stoll(ent[0][0]), std::stoll(tick), &keep);
    for (const nlohmann::json& f : g.at("fields")) {
      ++compared;
      auto id = field_ids.find({cls, Text(f.at("path"))});
      Value v;
      if (id != field_ids.end()) {
        auto it = values.find(id->second);
        if (it != values.end()) v = it->second;
      }
      if (!Matches(f.at("v"), v)) {
        if (++bad <= 10) {
          report += "tick " + tick + " " + cls + " " + Text(f.at("name")) + ": golden " +
                    Text(f.at("v")) + " ours " + JsonOf(v) + "\n";
        }
      }
    }
  }
  EXPECT_EQ(absent, 0u) << report;
  EXPECT_EQ(compared, 49202u);
  EXPECT_EQ(bad, 0u) << report;
  std::printf("nekit: %zu golden field values reproduced from the index\n", compared - bad);
}

// gem-index's exit_after leaves the finished parser and writer to the
// process's exit: they are kept (reachable), and the index is the same
// file, byte for byte, as one written without it.
TEST(Index, ExitAfterKeepsTheParserAndWritesTheSameFile) {
  GEM_REQUIRE_INDEX(path, kNekit);
  const std::string kept = path + ".exit-after.db";
  index::IndexOptions options;
  options.force = true;
  options.exit_after = true;
  index::IndexReport report;
  ASSERT_EQ(index::g_kept_until_exit.parser, nullptr);
  Status s = index::IndexReplay(FixturePath(std::string(kNekit) + ".dem"), kept, options, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_NE(index::g_kept_until_exit.parser, nullptr);
  EXPECT_NE(index::g_kept_until_exit.writer, nullptr);
  const std::string plain = FileBytes(path);
  EXPECT_GT(plain.size(), 0u);
  EXPECT_TRUE(plain == FileBytes(kept));
  std::remove(kept.c_str());
}

// A long replay's index frees the parse's entity states before the
// finish; nothing the finish writes may depend on them. Taken on a short
// replay, that path writes the same file, byte for byte.
TEST(Index, FreeingTheEntityStatesBeforeTheFinishWritesTheSameFile) {
  GEM_REQUIRE_INDEX(path, kNekit);
  const std::string freed = path + ".states-freed.db";
  index::IndexOptions options;
  options.force = true;
  options.release_states_from = 0;
  index::IndexReport report;
  Status s = index::IndexReplay(FixturePath(std::string(kNekit) + ".dem"), freed, options, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::string plain = FileBytes(path);
  EXPECT_GT(plain.size(), 0u);
  EXPECT_TRUE(plain == FileBytes(freed));
  std::remove(freed.c_str());
}

}  // namespace
}  // namespace gem::testing
