// Field names name one field: unique within every class (schema.h's rule),
// on a hand-built schema and on every modern fixture, and names that were
// unique before send nodes joined them are unchanged.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/parser/parser.h"
#include "core/fields/schema.h"
#include "core/fields/serializer_message.h"
#include "gtest/gtest.h"
#include "tests/support/replay_fixture.h"
#include "tests/support/test_env.h"

namespace gem::testing {
namespace {

// One serializer "Pawn" whose fields are (var_name, send node) pairs, all
// float32; a send node of "" is none.
struct HandSchema {
  std::vector<std::string> symbols;
  Schema schema;
  Status status;

  // `one_symbol_a_name` false: every field's var_name is a symbol of its
  // own, spelled alike (a message may repeat a string in its table).
  explicit HandSchema(const std::vector<std::pair<std::string, std::string>>& fields,
                      bool one_symbol_a_name = true) {
    symbols = {"Pawn", "float32"};
    auto sym = [&](const std::string& s) {
      for (size_t i = 0; one_symbol_a_name && i < symbols.size(); ++i) {
        if (symbols[i] == s) return static_cast<int32_t>(i);
      }
      symbols.push_back(s);
      return static_cast<int32_t>(symbols.size() - 1);
    };
    FlattenedSerializerMessage msg;
    for (const auto& [name, node] : fields) {
      SerializerFieldDesc d;
      d.var_name_sym = sym(name);
      d.var_type_sym = 1;
      if (!node.empty()) d.send_node_sym = sym(node);
      msg.field_indexes.push_back(static_cast<int32_t>(msg.fields.size()));
      msg.fields.push_back(d);
    }
    msg.serializers.push_back({0, 0, 0, static_cast<uint32_t>(fields.size())});
    for (const std::string& s : symbols) msg.symbols.push_back(s);
    status = schema.Build(msg, 1.0f / 30);
  }

  // The (name, short name) of field i.
  std::pair<std::string, std::string> Names(int32_t i) const {
    FieldPath p;
    p.index[0] = i;
    p.last = 0;
    ResolvedField r;
    EXPECT_TRUE(Schema::Resolve(*schema.FindSerializer("Pawn"), p, &r));
    return {r.name, r.short_name};
  }
};

// A pawn with two fields of each of two names, a field that has a send
// node and a name of its own, and what each field's (name, short name) is.
const std::vector<std::pair<std::string, std::string>> kPawn = {
    {"m_vecX", "m_vecVelocity"}, {"m_vecX", "m_vecViewOffset"}, {"m_iHealth", ""},
    {"m_flTimeScale", "m_Ability"}, {"m_flTimeScale", ""}, {"m_iItem", "m_Item"}};
void ExpectPawnNames(const HandSchema& h) {
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(h.Names(0), P("m_vecVelocity.m_vecX", "m_vecX"));
  EXPECT_EQ(h.Names(1), P("m_vecViewOffset.m_vecX", "m_vecX"));
  EXPECT_EQ(h.Names(2), P("m_iHealth", "m_iHealth"));
  // The one without a send node keeps its name; the other takes its node.
  EXPECT_EQ(h.Names(3), P("m_Ability.m_flTimeScale", "m_flTimeScale"));
  EXPECT_EQ(h.Names(4), P("m_flTimeScale", "m_flTimeScale"));
  // A unique name stays as it was, send node or not.
  EXPECT_EQ(h.Names(5), P("m_iItem", "m_iItem"));
}

TEST(FieldNames, TwoFieldsOfOneNameTakeTheirSendNodes) {
  HandSchema h(kPawn);
  ASSERT_TRUE(h.status.ok()) << h.status.ToString();
  ExpectPawnNames(h);
  // Names find their paths back, dots in a level's name and all.
  const Serializer& s = *h.schema.FindSerializer("Pawn");
  for (int32_t i = 0; i < 6; ++i) {
    FieldPath p;
    ASSERT_TRUE(Schema::FindSimplePath(s, h.Names(i).first, &p)) << i;
    EXPECT_EQ(p.last, 0);
    EXPECT_EQ(p.index[0], i);
  }
  FieldPath none;
  EXPECT_FALSE(Schema::FindSimplePath(s, "m_vecX", &none));
}

TEST(FieldNames, NamesAreComparedByTextNotBySymbol) {
  // The same pawn with every name and send node a symbol of its own: the
  // names are the same.
  HandSchema h(kPawn, /*one_symbol_a_name=*/false);
  ASSERT_TRUE(h.status.ok()) << h.status.ToString();
  ASSERT_GT(h.symbols.size(), 10u);  // names repeat in the symbol table
  ExpectPawnNames(h);
}

TEST(FieldNames, NamesStillAlikeAreNumbered) {
  // Two fields of one name and one send node, and a third whose name is
  // what the first two's qualified name would be: it keeps it.
  HandSchema h({{"m_a", "N"}, {"m_a", "N"}, {"N.m_a", ""}, {"m_b", ""}});
  ASSERT_TRUE(h.status.ok()) << h.status.ToString();
  std::set<std::string> names;
  for (int32_t i = 0; i < 4; ++i) names.insert(h.Names(i).first);
  EXPECT_EQ(names, (std::set<std::string>{"N.m_a~0", "N.m_a~1", "N.m_a", "m_b"}));
}

// Every name a class can have, by path: simple fields, array and table
// lengths, one element of each array (index 0), tables' members through
// their declared serializers.
void Walk(const Serializer* s, FieldPath prefix, int depth,
          std::vector<FieldPath>* out) {
  if (s == nullptr || prefix.last + 3 >= static_cast<int>(std::size(prefix.index))) return;
  for (size_t i = 0; i < s->fields.size(); ++i) {
    FieldPath p = prefix;
    p.index[++p.last] = static_cast<int32_t>(i);
    out->push_back(p);
    const Field* f = s->fields[i];
    FieldPath element = p;
    element.index[++element.last] = 0;
    switch (f->model) {
      case FieldModel::kSimple: break;
      case FieldModel::kFixedArray:
      case FieldModel::kVariableArray: out->push_back(element); break;
      case FieldModel::kFixedTable: Walk(f->serializer, p, depth + 1, out); break;
      case FieldModel::kVariableTable: Walk(f->serializer, element, depth + 1, out); break;
    }
  }
}

TEST(FieldNames, UniqueInEveryClassOfEveryModernFixture) {
  const std::vector<std::string> names = AllFixtures();
  if (names.empty()) GTEST_SKIP() << "SKIPPED: no fixtures in " << FixturesDir();
  int modern = 0;
  std::set<std::string> seen_examples;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    auto parsed = ParseReplayFile(FixturesDir() + "/" + name, nullptr);
    const Schema& schema = parsed->parser->schema();
    if (!schema.built()) continue;  // a legacy replay: no serializers
    ++modern;
    size_t qualified = 0;
    for (size_t c = 0; c < schema.class_slots(); ++c) {
      const ClassInfo* info = schema.GetClass(static_cast<int32_t>(c));
      if (info == nullptr || info->serializer == nullptr) continue;
      FieldPath root;
      root.last = -1;
      std::vector<FieldPath> paths;
      Walk(info->serializer, root, 0, &paths);
      std::map<std::string, std::string> path_of_name;
      std::map<std::string, int> short_uses;
      std::vector<ResolvedField> resolved(paths.size());
      for (size_t k = 0; k < paths.size(); ++k) {
        ASSERT_TRUE(Schema::Resolve(*info->serializer, paths[k], &resolved[k]))
            << info->name << " " << paths[k].ToString();
        const auto [it, fresh] = path_of_name.emplace(resolved[k].name, paths[k].ToString());
        EXPECT_TRUE(fresh) << info->name << ": " << resolved[k].name << " names "
                           << it->second << " and " << paths[k].ToString();
        ++short_uses[resolved[k].short_name];
      }
      for (const ResolvedField& r : resolved) {
        // A name unique before send nodes joined names is unchanged.
        if (short_uses[r.short_name] == 1) {
          EXPECT_EQ(r.name, r.short_name) << info->name;
        } else if (r.name != r.short_name) {
          ++qualified;
          if (info->name == "CCSPlayerPawn" || info->name == "CCitadelPlayerPawn") {
            seen_examples.insert(info->name + " " + r.name);
          }
        }
      }
    }
    EXPECT_GT(qualified, 0u);  // every game's base pawn has two m_vecX
  }
  EXPECT_GE(modern, 11);
  // The fields the issue names, each under its send node.
  for (const char* want :
       {"CCSPlayerPawn m_vecVelocity.m_vecX", "CCSPlayerPawn m_vecViewOffset.m_vecZ",
        "CCitadelPlayerPawn m_CCitadelHeroComponent.m_spawnedHero.m_nHeroID",
        "CCitadelPlayerPawn m_CCitadelHeroComponent.m_loadingHero.m_nHeroID",
        "CCSPlayerPawn m_pActionTrackingServices.m_weaponPurchasesThisRound.m_weaponPurchases"}) {
    EXPECT_TRUE(seen_examples.count(want)) << want;
  }
}

}  // namespace
}  // namespace gem::testing
