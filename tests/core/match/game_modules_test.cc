// The games gem knows (core/match/games.cc): which replays each one's
// headers name, how each game's own integer types decode (HeroID_t), and
// the tables each declares.
#include <set>
#include <string>

#include "core/util/bit_reader.h"
#include "core/util/bit_writer.h"
#include "core/fields/field_decoder.h"
#include "core/match/games.h"
#include "gtest/gtest.h"

namespace gem {
namespace {

ReplayHeader Header(std::string game, std::string dir) {
  ReplayHeader h;
  h.game = std::move(game);
  h.game_directory = std::move(dir);
  return h;
}

TEST(GameModules, HeadersNameTheirGame) {
  EXPECT_EQ(match::GameOf(Header("", "/home/x/dota 2 beta/game/dota")), "dota2");
  EXPECT_EQ(match::GameOf(Header("dota", "")), "dota2");
  EXPECT_EQ(match::GameOf(Header("", "C:/Steam/steamapps/common/Deadlock/game/citadel")),
            "deadlock");
  EXPECT_EQ(match::GameOf(Header("csgo", "")), "cs2");
  EXPECT_EQ(match::GameOf(Header("mygame", "/x/mygame")), "mygame");
  EXPECT_EQ(match::CreateGameModule("mygame"), nullptr);
  EXPECT_EQ(match::KnownGames(), "Dota 2, CS2 and Deadlock");
}

// The decoder a game gives a field of declared type `type`.
FieldDecoder DecoderIn(std::string_view game, std::string_view type) {
  std::unique_ptr<match::GameModule> m = match::CreateGameModule(game);
  DecoderSpec s;
  s.base_type = type;
  s.var_name = "m_nHeroID";
  if (m != nullptr) s.game_rules = m->type_rules();
  return SelectDecoder(s);
}

int64_t DecodeVarint(const FieldDecoder& d, uint32_t varint) {
  BitWriter w;
  w.WriteVarUint32(varint);
  BitReader r(w.bytes().data(), w.bytes().size());
  Value v;
  std::string scratch;
  d.Decode(&r, &v, &scratch);
  return v.kind == ValueKind::kInt ? v.i : static_cast<int64_t>(v.u);
}

TEST(GameModules, HeroIdIsSignedInDotaAndUnsignedInDeadlock) {
  // Valve's schemas box HeroID_t as int32 in Dota 2 (-1: none) and as
  // uint32 in Deadlock, whose ids read as zigzag come out as -10 (19).
  const FieldDecoder dota = DecoderIn("dota2", "HeroID_t");
  const FieldDecoder deadlock = DecoderIn("deadlock", "HeroID_t");
  EXPECT_EQ(dota.op, DecodeOp::kSVar32);
  EXPECT_EQ(deadlock.op, DecodeOp::kUVar32);
  EXPECT_FALSE(dota.default_rule);
  EXPECT_FALSE(deadlock.default_rule);
  EXPECT_EQ(DecodeVarint(dota, 1), -1);
  EXPECT_EQ(DecodeVarint(dota, 4), 2);
  EXPECT_EQ(DecodeVarint(deadlock, 19), 19);
  EXPECT_EQ(DecodeVarint(deadlock, 6), 6);
  // A game that says nothing of it gets the engine's default, counted.
  EXPECT_TRUE(DecoderIn("cs2", "HeroID_t").default_rule);
  // Other types keep the engine's rules in every game.
  EXPECT_EQ(DecoderIn("deadlock", "int32").op, DecodeOp::kSVar32);
}

TEST(GameModules, EachGameDeclaresItsTables) {
  auto names = [](std::string_view game) {
    std::set<std::string> out;
    for (const TableSpec& t : match::SchemaFor(game).tables) out.insert(t.name);
    return out;
  };
  EXPECT_EQ(names("dota2"),
            (std::set<std::string>{"abilities", "ability_uses", "actions", "buybacks",
                                   "chat_events", "combat_log_entries", "combat_log_names",
                                   "combat_log_types", "draft", "file_info_players",
                                   "gold_reason_names", "hero_deaths", "inventory", "item_uses",
                                   "kill_streaks", "lanes", "multi_kills", "objectives",
                                   "pauses", "purchases", "runes", "teamfight_players",
                                   "teamfights", "unit_order_names", "xp_reason_names"}));
  EXPECT_EQ(names("deadlock"),
            (std::set<std::string>{"abilities", "ability_casts", "ability_cooldowns",
                                   "banned_heroes", "damage",
                                   "flex_slots", "heroes", "idol_returns", "inventory",
                                   "kill_streaks", "known_names", "mid_boss", "modifiers",
                                   "objective_events",
                                   "patron_phases", "pauses", "pings",
                                   "purchase_notifications", "purchases", "record_damage", "record_deaths", "record_items",
                                   "record_match", "record_mid_boss", "record_objectives",
                                   "record_paths", "record_pauses", "record_players",
                                   "record_souls", "record_stats", "respawns", "teamfights",
                                   "urn"}));
  EXPECT_EQ(names("cs2"), (std::set<std::string>{"bomb", "damages", "economy", "flashes",
                                                 "grenade_paths", "grenades", "rounds",
                                                 "shots", "sightings"}));
  // Every CS2 table carries tick and round (grenade_paths: its grenade's).
  for (const TableSpec& t : match::SchemaFor("cs2").tables) {
    std::set<std::string> columns;
    for (const TableColumn& c : t.columns) columns.insert(c.name);
    EXPECT_TRUE(columns.count("tick")) << t.name;
    if (t.name != "grenade_paths") {
      EXPECT_TRUE(columns.count("round")) << t.name;
    }
  }
  std::set<std::string> kill_columns;
  for (const TableColumn& c : match::SchemaFor("cs2").kill_columns) kill_columns.insert(c.name);
  for (const char* c : {"round", "penetrated", "thrusmoke", "noscope", "attackerblind",
                        "distance", "hitgroup", "attacker_x", "attacker_y", "attacker_z"}) {
    EXPECT_TRUE(kill_columns.count(c)) << c;
  }
  EXPECT_TRUE(match::SchemaFor("dota2").kill_columns.empty());
  EXPECT_TRUE(names("mygame").empty());
  // Every analyst table has a tick and a game clock (but the names of
  // enumerations, and lanes: one row a player).
  for (const TableSpec& t : match::SchemaFor("dota2").tables) {
    const bool names_table =
        t.name.size() > 6 && t.name.compare(t.name.size() - 6, 6, "_names") == 0;
    if (t.name.rfind("combat_log", 0) == 0 || t.name == "chat_events" ||
        t.name == "file_info_players" || t.name.rfind("teamfight", 0) == 0 || names_table) {
      continue;
    }
    if (t.name == "lanes") {
      EXPECT_EQ(t.columns[0].name, "slot");
      continue;
    }
    std::set<std::string> columns;
    for (const TableColumn& c : t.columns) columns.insert(c.name);
    EXPECT_TRUE(columns.count("tick") && columns.count("game_time")) << t.name;
    if (t.name != "draft") {
      EXPECT_TRUE(columns.count("slot")) << t.name;
    }
  }
  const std::string sql = CreateTableSql(match::SchemaFor("dota2").tables[0]);
  EXPECT_NE(sql.find("CREATE TABLE combat_log_types("), std::string::npos) << sql;
}

}  // namespace
}  // namespace gem
