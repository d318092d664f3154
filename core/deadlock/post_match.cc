#include "core/deadlock/post_match.h"

#include <cstdlib>
#include <span>

#include "core/deadlock/hero_names.h"
#include "core/deadlock/messages.h"
#include "core/deadlock/tables.h"

namespace gem::deadlock {
namespace {

using match::MatchContext;

// One column read straight from a field of the record's message.
enum class Kind : uint8_t { kUint, kInt, kUint64, kReal };
struct Flat {
  const char* column;
  uint32_t field;
  Kind kind;
  // The column's doc (TableColumn::doc): the record's field it is. Only
  // the lists that declare columns give one.
  const char* doc = nullptr;
};

// Valve's messages are CMsgMatchMetaDataContents' MatchInfo, Players,
// PlayerStats, GoldSource, Objective, MidBoss and Pause.
constexpr Flat kMatchFlat[] = {
    {"match_id", 6, Kind::kUint64, "MatchInfo.match_id (field 6): the match's id"},
    {"duration_s", 1, Kind::kUint, "MatchInfo.duration_s (field 1): the match's length, seconds"},
    {"outcome", 2, Kind::kInt,
     "MatchInfo.match_outcome (field 2): EMatchOutcome 0 a team won, 1 error, 2 draw"},
    {"winning_team", 3, Kind::kInt,
     "MatchInfo.winning_team (field 3): ECitadelLobbyTeam 0 or 1 (not the engine's 2 and 3)"},
    {"game_mode", 9, Kind::kInt,
     "MatchInfo.game_mode (field 9): ECitadelGameMode 1 normal, 2 1v1 test, 3 sandbox, 4 street "
     "brawl, ..."},
    {"match_mode", 10, Kind::kInt,
     "MatchInfo.match_mode (field 10): ECitadelMatchMode 1 unranked, 2 private lobby, 3 bots, 4 "
     "ranked, 5 server test, 6 tutorial, 7 hero labs, 8 calibration"},
    {"start_time", 5, Kind::kUint,
     "MatchInfo.start_time (field 5): when the match started, Unix time in seconds"},
};
// After slot, account_id, team, hero_id and hero.
constexpr Flat kPlayerFlat[] = {
    {"kills", 8, Kind::kUint,
     "Players.kills (field 8); meta's record_kills_disagree counts the players whose kills "
     "differ from their controller's m_iPlayerKills at the end"},
    {"deaths", 9, Kind::kUint, "Players.deaths (field 9)"},
    {"assists", 10, Kind::kUint, "Players.assists (field 10)"},
    {"net_worth", 11, Kind::kUint,
     "Players.net_worth (field 11), souls; meta's record_souls_disagree counts the players whose "
     "net worth differs from their controller's m_iGoldNetWorth at the end"},
    {"last_hits", 13, Kind::kUint, "Players.last_hits (field 13)"},
    {"denies", 14, Kind::kUint, "Players.denies (field 14)"},
    {"ability_points", 15, Kind::kUint, "Players.ability_points (field 15)"},
    {"assigned_lane", 17, Kind::kUint, "Players.assigned_lane (field 17), Valve's number"},
    {"level", 18, Kind::kUint, "Players.level (field 18)"},
    {"abandon_time_s", 23, Kind::kUint,
     "Players.abandon_match_time_s (field 23): when the player abandoned, seconds; NULL when not "
     "sent"},
    {"mvp_rank", 28, Kind::kUint, "Players.mvp_rank (field 28)"},
};
// After slot. The record's gold_* fields are souls.
constexpr Flat kStatsFlat[] = {
    {"time_s", 1, Kind::kUint, "PlayerStats.time_stamp_s (field 1): the sample's time, seconds"},
    {"net_worth", 2, Kind::kUint, "PlayerStats.net_worth (field 2), souls"},
    {"souls_player", 3, Kind::kUint, "PlayerStats.gold_player (field 3), souls"},
    {"souls_player_orbs", 4, Kind::kUint, "PlayerStats.gold_player_orbs (field 4), souls"},
    {"souls_lane_creep_orbs", 5, Kind::kUint,
     "PlayerStats.gold_lane_creep_orbs (field 5), souls"},
    {"souls_neutral_creep_orbs", 6, Kind::kUint,
     "PlayerStats.gold_neutral_creep_orbs (field 6), souls"},
    {"souls_boss", 7, Kind::kUint, "PlayerStats.gold_boss (field 7), souls"},
    {"souls_boss_orb", 8, Kind::kUint, "PlayerStats.gold_boss_orb (field 8), souls"},
    {"souls_treasure", 9, Kind::kUint, "PlayerStats.gold_treasure (field 9), souls"},
    {"souls_denied", 10, Kind::kUint, "PlayerStats.gold_denied (field 10), souls"},
    {"souls_death_loss", 11, Kind::kUint, "PlayerStats.gold_death_loss (field 11), souls"},
    {"souls_lane_creep", 12, Kind::kUint, "PlayerStats.gold_lane_creep (field 12), souls"},
    {"souls_neutral_creep", 13, Kind::kUint, "PlayerStats.gold_neutral_creep (field 13), souls"},
    {"kills", 14, Kind::kUint, "PlayerStats.kills (field 14)"},
    {"deaths", 15, Kind::kUint, "PlayerStats.deaths (field 15)"},
    {"assists", 16, Kind::kUint, "PlayerStats.assists (field 16)"},
    {"creep_kills", 17, Kind::kUint, "PlayerStats.creep_kills (field 17)"},
    {"neutral_kills", 18, Kind::kUint, "PlayerStats.neutral_kills (field 18)"},
    {"creep_damage", 20, Kind::kUint, "PlayerStats.creep_damage (field 20)"},
    {"player_damage", 21, Kind::kUint, "PlayerStats.player_damage (field 21)"},
    {"neutral_damage", 22, Kind::kUint, "PlayerStats.neutral_damage (field 22)"},
    {"boss_damage", 23, Kind::kUint, "PlayerStats.boss_damage (field 23)"},
    {"denies", 24, Kind::kUint, "PlayerStats.denies (field 24)"},
    {"player_healing", 25, Kind::kUint, "PlayerStats.player_healing (field 25)"},
    {"ability_points", 26, Kind::kUint, "PlayerStats.ability_points (field 26)"},
    {"self_healing", 27, Kind::kUint, "PlayerStats.self_healing (field 27)"},
    {"player_damage_taken", 28, Kind::kUint, "PlayerStats.player_damage_taken (field 28)"},
    {"max_health", 29, Kind::kUint, "PlayerStats.max_health (field 29)"},
    {"weapon_power", 30, Kind::kUint, "PlayerStats.weapon_power (field 30)"},
    {"tech_power", 31, Kind::kUint, "PlayerStats.tech_power (field 31)"},
    {"shots_hit", 32, Kind::kUint, "PlayerStats.shots_hit (field 32)"},
    {"shots_missed", 33, Kind::kUint, "PlayerStats.shots_missed (field 33)"},
    {"level", 43, Kind::kUint, "PlayerStats.level (field 43)"},
};
// After slot, time_s and source.
constexpr Flat kSoulsFlat[] = {
    {"kills", 2, Kind::kUint, "GoldSource.kills (field 2)"},
    {"damage", 3, Kind::kUint, "GoldSource.damage (field 3)"},
    {"souls", 4, Kind::kUint, "GoldSource.gold (field 4): the souls from the source"},
    {"souls_orbs", 5, Kind::kUint, "GoldSource.gold_orbs (field 5), souls"},
};
constexpr Flat kObjectiveFlat[] = {
    {"team", 10, Kind::kInt,
     "Objective.team (field 10): the objective's team, ECitadelLobbyTeam 0 or 1"},
    {"team_objective_id", 9, Kind::kInt,
     "Objective.team_objective_id (field 9), ECitadelTeamObjective: 0 core, 1-4 tier 1 "
     "lanes 1-4, 5-8 tier 2 lanes 1-4, 9 titan, 10-11 titan shield generators, 12-15 barrack "
     "boss lanes 1-4"},
    {"legacy_objective_id", 1, Kind::kInt,
     "Objective.legacy_objective_id (field 1), ECitadelObjective: team 0's as "
     "team_objective_id, team 1's the same plus 16, 32 neutral mid"},
    {"first_damage_time_s", 8, Kind::kUint,
     "Objective.first_damage_time_s (field 8): when it was first damaged, seconds"},
    {"destroyed_time_s", 2, Kind::kUint,
     "Objective.destroyed_time_s (field 2): when it fell, seconds; meta's "
     "record_objectives_disagree compares the count of those above 0 with the BossKilled "
     "messages read (the mid boss's left out)"},
    {"creep_damage", 4, Kind::kUint, "Objective.creep_damage (field 4)"},
    {"creep_damage_mitigated", 5, Kind::kUint, "Objective.creep_damage_mitigated (field 5)"},
    {"player_damage", 6, Kind::kUint, "Objective.player_damage (field 6)"},
    {"player_damage_mitigated", 7, Kind::kUint, "Objective.player_damage_mitigated (field 7)"},
    {"player_spirit_damage", 11, Kind::kUint, "Objective.player_spirit_damage (field 11)"},
};
constexpr Flat kMidBossFlat[] = {
    {"team_killed", 1, Kind::kInt,
     "MidBoss.team_killed (field 1): the team that killed it, ECitadelLobbyTeam 0 or 1"},
    {"team_claimed", 2, Kind::kInt,
     "MidBoss.team_claimed (field 2): the team that claimed the Rejuvenator, ECitadelLobbyTeam"},
    {"destroyed_time_s", 3, Kind::kUint,
     "MidBoss.destroyed_time_s (field 3): when it died, seconds"},
};
constexpr Flat kPauseFlat[] = {
    {"time_s", 1, Kind::kUint, "Pause.game_time_s (field 1): when the pause began, seconds"},
    {"duration_s", 2, Kind::kUint, "Pause.pause_duration_s (field 2): its length, seconds"},
    {"slot", 3, Kind::kUint, "Pause.player_slot (field 3): the player who paused"},
};

// EGoldSource, by value.
const char* const kSoulSources[] = {
    nullptr,        "players",   "lane_creeps",         "neutrals",
    "bosses",       "treasure",  "assists",             "denies",
    "team_bonus",   "ability_assassinate", "item_trophy_collector",
    "item_cultist_sacrifice", "breakable", "item_goose_egg",
};

const char* TypeOf(Kind k) { return k == Kind::kReal ? "REAL" : "INTEGER"; }

TableSpec Spec(const char* name, const char* comment, std::initializer_list<TableColumn> head,
               std::span<const Flat> flat = {}) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.columns.assign(head.begin(), head.end());
  for (const Flat& f : flat) {
    t.columns.push_back({f.column, TypeOf(f.kind), f.doc != nullptr ? f.doc : ""});
  }
  return t;
}

MatchValue Read(const MessageFields& m, const Flat& f) {
  switch (f.kind) {
    case Kind::kUint:
      if (auto v = m.Uint32(f.field)) return MatchValue::Int(*v);
      break;
    case Kind::kInt:
      if (auto v = m.Int32(f.field)) return MatchValue::Int(*v);
      break;
    case Kind::kUint64:
      if (auto v = m.Uint64(f.field)) return MatchValue::Int(static_cast<int64_t>(*v));
      break;
    case Kind::kReal:
      if (auto v = m.Real(f.field)) return MatchValue::Real(*v);
      break;
  }
  return MatchValue();
}

void Fill(const MessageFields& m, std::span<const Flat> flat, std::vector<MatchValue>& row,
          size_t first) {
  for (size_t i = 0; i < flat.size(); ++i) row[first + i] = Read(m, flat[i]);
}

bool ParseView(std::string_view bytes, MessageFields* m) {
  return m->Parse(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

const uint8_t* Data(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

}  // namespace

bool IsDamageCategory(std::string_view source_name) {
  return !source_name.empty() && source_name[0] >= 'A' && source_name[0] <= 'Z' &&
         source_name.find('_') == std::string_view::npos;
}

void AddRecordTables(GameSchema* s) {
  const char* kInt = "INTEGER";
  const char* kSlot =
      "the record's player_slot of the player, which gem reads as players.slot (the meta checks "
      "look its controller up at entity index slot + 1)";
  s->tables[kRecordMatch] = Spec(
      "record_match",
      "the post-match record: the match, one row a record. A complete replay carries near its "
      "end the record Valve's servers keep (CCitadelUserMsg_PostMatchDetails, whose "
      "match_details is a CMsgMatchMetaDataContents: what deadlock-api and Statlocker build "
      "their match pages from); the record_* tables write it as it says, in its own terms (its "
      "own seconds, teams as ECitadelLobbyTeam 0 and 1, players by its player_slot), never "
      "merged into gem's tables. meta's post_match_record says whether the replay had one (most "
      "recordings stop before it); one that does not parse counts as damaged_post_match_records",
      {{"tick", "INTEGER NOT NULL", "the index tick of the PostMatchDetails message"}},
      kMatchFlat);
  s->tables[kRecordPlayers] = Spec(
      "record_players",
      "the post-match record: a player (CMsgMatchMetaDataContents.Players) as the match ended",
      {{"slot", kInt, kSlot},
       {"account_id", kInt, "Players.account_id (field 1): the player's Steam account id"},
       {"team", kInt, "Players.team (field 6): ECitadelLobbyTeam 0 or 1"},
       {"hero_id", kInt, "Players.hero_id (field 12): heroes.hero_id"},
       {"hero", "TEXT",
        "the hero's display name from gem's table of hero names (as heroes.name); NULL when "
        "not in it"}},
      kPlayerFlat);
  s->tables[kRecordStats] = Spec(
      "record_stats",
      "the post-match record: a player's stats at a sample time (Players.stats, a "
      "CMsgMatchMetaDataContents.PlayerStats each; the record's gold_* fields are souls)",
      {{"slot", kInt, kSlot}}, kStatsFlat);
  s->tables[kRecordSouls] = Spec(
      "record_souls",
      "the post-match record: a player's souls from one source at a sample time (a "
      "PlayerStats' gold_sources, a CMsgMatchMetaDataContents.GoldSource each)",
      {{"slot", kInt, kSlot},
       {"time_s", kInt, "the sample's time: its PlayerStats.time_stamp_s, seconds"},
       {"source", "TEXT",
        "GoldSource.source (field 1), EGoldSource by name: players, lane_creeps, neutrals, "
        "bosses, treasure, assists, denies, team_bonus, ability_assassinate, "
        "item_trophy_collector, item_cultist_sacrifice, breakable, item_goose_egg; another "
        "value as its number; NULL when not sent (Valve's default is players)"}},
      kSoulsFlat);
  s->tables[kRecordItems] = Spec(
      "record_items",
      "the post-match record: an item a player bought (Players.items, a "
      "CMsgMatchMetaDataContents.Items each)",
      {{"slot", kInt, kSlot},
       {"time_s", kInt, "Items.game_time_s (field 1): when it was bought, seconds"},
       {"item_id", kInt, "Items.item_id (field 2): Valve's token of the item's name"},
       {"item", "TEXT",
        "the name of item_id: the replay's EntityNames entry whose token it is, else "
        "known_names' item; NULL when neither"},
       {"upgrade_id", kInt, "Items.upgrade_id (field 3), as sent"},
       {"sold_time_s", kInt, "Items.sold_time_s (field 4): when it was sold, seconds, as sent"},
       {"flags", kInt, "Items.flags (field 5), Valve's bits"},
       {"imbued_ability_id", kInt,
        "Items.imbued_ability_id (field 6): the token of the ability the item imbues, as sent"}});
  s->tables[kRecordDeaths] = Spec(
      "record_deaths",
      "the post-match record: a player's death (Players.death_details, a "
      "CMsgMatchMetaDataContents.Deaths each)",
      {{"slot", kInt, kSlot},
       {"time_s", kInt, "Deaths.game_time_s (field 1): when the player died, seconds"},
       {"killer_slot", kInt, "Deaths.killer_player_slot (field 9): the killer's player_slot"},
       {"time_to_kill_s", "REAL", "Deaths.time_to_kill_s (field 2), seconds"},
       {"death_duration_s", kInt, "Deaths.death_duration_s (field 12): time dead, seconds"},
       {"x", "REAL", "Deaths.death_pos (field 10): where the player died, x; NULL when not sent"},
       {"y", "REAL", "death_pos's y"},
       {"z", "REAL", "death_pos's z"},
       {"killer_x", "REAL",
        "Deaths.killer_pos (field 11): where the killer was, x; NULL when not sent"},
       {"killer_y", "REAL", "killer_pos's y"},
       {"killer_z", "REAL", "killer_pos's z"}});
  s->tables[kRecordObjectives] = Spec(
      "record_objectives",
      "the post-match record: an objective (MatchInfo.objectives, a "
      "CMsgMatchMetaDataContents.Objective each)",
      {}, kObjectiveFlat);
  s->tables[kRecordMidBoss] = Spec(
      "record_mid_boss",
      "the post-match record: a mid boss kill (MatchInfo.mid_boss, a "
      "CMsgMatchMetaDataContents.MidBoss each)",
      {}, kMidBossFlat);
  s->tables[kRecordPauses] = Spec(
      "record_pauses",
      "the post-match record: a pause (MatchInfo.match_pauses, a CMsgMatchMetaDataContents.Pause "
      "each)",
      {}, kPauseFlat);
  s->tables[kRecordDamage] = Spec(
      "record_damage",
      "the post-match record's damage matrix (CMsgMatchPlayerDamageMatrix): a dealer's running "
      "total from one source on one target at one sample time. A cell with fewer values than "
      "the record has sample times covers the last of them (a pair that first met late; boon "
      "verified this on real records); one with more counts as record_damage_cells_misaligned. "
      "The record counts each hit twice, under its specific source and under a coarse category "
      "(category 1): record_damage_totals counts it once",
      {{"dealer_slot", kInt, "DamageDealer.dealer_player_slot: the dealing player's player_slot"},
       {"target_slot", kInt, "DamageToPlayer.target_player_slot: the target's player_slot"},
       {"source_index", kInt,
        "DamageSource.source_details_index: the source's index into the matrix's source_details"},
       {"source_name", "TEXT",
        "source_details.source_name at that index (citadel_weapon_shiv_set, Bullet); NULL when "
        "the index is past its end"},
       {"stat_type", kInt,
        "source_details.stat_type at that index, EStatType: 0 damage, 1 healing, 2 heal "
        "prevented, 3 mitigated, 4 lethal damage, 5 regen"},
       {"category", kInt,
        "1 when source_name is a coarse category (a capitalised word without '_': Bullet, "
        "Ability, Melee, Misc, UnknownAbility), 0 a specific source (snake_case); NULL unnamed"},
       {"sample", kInt, "the sample's index into the matrix's sample_time_s"},
       {"time_s", kInt,
        "sample_time_s at that index, seconds; NULL past its end (a misaligned cell)"},
       {"value", kInt,
        "the cell's value at the sample (DamageToPlayer.damage): the running total, as the "
        "record holds it"},
       {"gained", kInt,
        "what the cell grew since its sample before: value less the previous value (the first "
        "value in full)"}});
  s->tables[kRecordPaths] = Spec(
      "record_paths",
      "the post-match record: a player's path, a row a sample (MatchInfo.match_paths, a "
      "CMsgMatchPlayerPathsData: a Path a player)",
      {{"slot", kInt, "Path.player_slot: the player's player_slot"},
       {"sample", kInt, "the sample's index in the path, from 0"},
       {"time_s", "REAL",
        "the paths' interval_s times sample: the sample's time, seconds; NULL when no interval"},
       {"x", "REAL",
        "x_min + x_pos / x_resolution * (x_max - x_min), from Path's x_min, x_max, x_pos and "
        "the paths' x_resolution: world units; NULL without them"},
       {"y", "REAL", "the same of y; NULL past the end of y_pos"},
       {"health", kInt, "Path.health at the sample; NULL past its end"},
       {"combat_type", kInt,
        "Path.combat_type at the sample, ECombatType: 0 out of combat, 1 player, 2 enemy NPC, 3 "
        "neutral; NULL past its end"},
       {"move_type", kInt,
        "Path.move_type at the sample, EMoveType: 0 normal, 1 ability, 2 ability debuff, 3 "
        "ground dash, 4 slide, 5 rope climbing, 6 ziplining, 7 in air, 8 air dash"}});
}

void PostMatch::OnMessage(MatchContext& ctx, const uint8_t* data, size_t size) {
  MessageFields outer, contents;
  std::optional<std::string_view> details, info;
  if (!outer.Parse(data, size) || !(details = outer.Bytes(1)) ||
      !ParseView(*details, &contents) || !(info = contents.Bytes(2))) {
    ++damaged_;
    return;
  }
  present_ = true;
  totals_.clear();
  objectives_destroyed_ = 0;
  if (!Write(ctx, *info)) ++damaged_;
}

bool PostMatch::Write(MatchContext& ctx, std::string_view info) {
  MessageFields m;
  if (!ParseView(info, &m)) return false;
  row_.assign(1 + std::size(kMatchFlat), MatchValue());
  row_[0] = MatchValue::Int(ctx.tick());
  Fill(m, kMatchFlat, row_, 1);
  ctx.Row(kRecordMatch, row_);
  bool ok = ForEachBytes(Data(info), info.size(), 4,
                         [&](std::string_view p) { return Player(ctx, p); });
  ok = ok && ForEachBytes(Data(info), info.size(), 11, [&](std::string_view o) {
    MessageFields f;
    if (!ParseView(o, &f)) return false;
    row_.assign(std::size(kObjectiveFlat), MatchValue());
    Fill(f, kObjectiveFlat, row_, 0);
    if (f.Uint32(2).value_or(0) > 0) ++objectives_destroyed_;
    ctx.Row(kRecordObjectives, row_);
    return true;
  });
  struct Part {
    uint32_t field;
    Table table;
    std::span<const Flat> flat;
  };
  for (const Part& part : {Part{19, kRecordMidBoss, kMidBossFlat},
                           Part{14, kRecordPauses, kPauseFlat}}) {
    const std::span<const Flat> flat = part.flat;
    const Table table = part.table;
    ok = ok && ForEachBytes(Data(info), info.size(), part.field, [&](std::string_view b) {
      MessageFields f;
      if (!ParseView(b, &f)) return false;
      row_.assign(flat.size(), MatchValue());
      Fill(f, flat, row_, 0);
      ctx.Row(table, row_);
      return true;
    });
  }
  if (auto matrix = m.Bytes(13); ok && matrix) ok = DamageMatrix(ctx, *matrix);
  if (auto paths = m.Bytes(12); ok && paths) ok = Paths(ctx, *paths);
  return ok;
}

bool PostMatch::Player(MatchContext& ctx, std::string_view player) {
  MessageFields p;
  if (!ParseView(player, &p)) return false;
  const MatchValue slot = Read(p, {"slot", 2, Kind::kUint});
  const std::optional<uint32_t> hero_id = p.Uint32(12);
  row_.assign(5 + std::size(kPlayerFlat), MatchValue());
  row_[0] = slot;
  row_[1] = Read(p, {"account_id", 1, Kind::kUint});
  row_[2] = Read(p, {"team", 6, Kind::kInt});
  if (hero_id) {
    row_[3] = MatchValue::Int(*hero_id);
    const std::string_view hero = HeroDisplayName(*hero_id);
    if (!hero.empty()) row_[4] = MatchValue::Text(hero);
  }
  Fill(p, kPlayerFlat, row_, 5);
  ctx.Row(kRecordPlayers, row_);
  if (!slot.is_null()) {
    totals_[slot.i] = {p.Uint32(8).value_or(0), p.Uint32(11).value_or(0)};
  }
  bool ok = ForEachBytes(Data(player), player.size(), 5, [&](std::string_view st) {
    MessageFields s;
    if (!ParseView(st, &s)) return false;
    row_.assign(1 + std::size(kStatsFlat), MatchValue());
    row_[0] = slot;
    Fill(s, kStatsFlat, row_, 1);
    ctx.Row(kRecordStats, row_);
    const MatchValue time = Read(s, kStatsFlat[0]);
    return ForEachBytes(Data(st), st.size(), 40, [&](std::string_view src) {
      MessageFields g;
      if (!ParseView(src, &g)) return false;
      row_.assign(3 + std::size(kSoulsFlat), MatchValue());
      row_[0] = slot;
      row_[1] = time;
      std::string number;
      if (const std::optional<int32_t> source = g.Int32(1)) {
        if (*source > 0 && *source < static_cast<int32_t>(std::size(kSoulSources))) {
          row_[2] = MatchValue::Text(kSoulSources[*source]);
        } else {
          number = std::to_string(*source);
          row_[2] = MatchValue::Text(number);
        }
      }
      Fill(g, kSoulsFlat, row_, 3);
      ctx.Row(kRecordSouls, row_);
      return true;
    });
  });
  ok = ok && ForEachBytes(Data(player), player.size(), 4, [&](std::string_view it) {
    MessageFields i;
    if (!ParseView(it, &i)) return false;
    row_.assign(8, MatchValue());
    row_[0] = slot;
    row_[1] = Read(i, {"time_s", 1, Kind::kUint});
    row_[2] = Read(i, {"item_id", 2, Kind::kUint});
    if (const std::optional<uint32_t> id = i.Uint32(2); id && *id != 0) {
      const std::string_view name = names_->AbilityName(ctx, *id);
      if (!name.empty()) row_[3] = MatchValue::Text(name);
    }
    row_[4] = Read(i, {"upgrade_id", 3, Kind::kUint});
    row_[5] = Read(i, {"sold_time_s", 4, Kind::kUint});
    row_[6] = Read(i, {"flags", 5, Kind::kUint});
    row_[7] = Read(i, {"imbued_ability_id", 6, Kind::kUint});
    ctx.Row(kRecordItems, row_);
    return true;
  });
  ok = ok && ForEachBytes(Data(player), player.size(), 3, [&](std::string_view d) {
    MessageFields f;
    if (!ParseView(d, &f)) return false;
    row_.assign(11, MatchValue());
    row_[0] = slot;
    row_[1] = Read(f, {"time_s", 1, Kind::kUint});
    row_[2] = Read(f, {"killer_slot", 9, Kind::kUint});
    row_[3] = Read(f, {"time_to_kill_s", 2, Kind::kReal});
    row_[4] = Read(f, {"death_duration_s", 12, Kind::kUint});
    double xyz[3];
    if (f.Vector(10, xyz)) {
      for (int a = 0; a < 3; ++a) row_[5 + a] = MatchValue::Real(xyz[a]);
    }
    if (f.Vector(11, xyz)) {
      for (int a = 0; a < 3; ++a) row_[8 + a] = MatchValue::Real(xyz[a]);
    }
    ctx.Row(kRecordDeaths, row_);
    return true;
  });
  return ok;
}

bool PostMatch::DamageMatrix(MatchContext& ctx, std::string_view matrix) {
  std::vector<int64_t> times, stat_types;
  std::vector<std::string_view> source_names;
  if (!RepeatedVarints(Data(matrix), matrix.size(), 2, false, &times)) return false;
  MessageFields m;
  if (!ParseView(matrix, &m)) return false;
  if (const std::optional<std::string_view> details = m.Bytes(3)) {
    if (!RepeatedVarints(Data(*details), details->size(), 1, true, &stat_types)) return false;
    if (!ForEachBytes(Data(*details), details->size(), 2, [&](std::string_view name) {
          source_names.push_back(name);
          return true;
        })) {
      return false;
    }
  }
  std::vector<int64_t> values;
  return ForEachBytes(Data(matrix), matrix.size(), 1, [&](std::string_view dealer) {
    MessageFields d;
    if (!ParseView(dealer, &d)) return false;
    const MatchValue dealer_slot = Read(d, {"dealer_slot", 1, Kind::kUint});
    return ForEachBytes(Data(dealer), dealer.size(), 2, [&](std::string_view source) {
      MessageFields s;
      if (!ParseView(source, &s)) return false;
      const std::optional<uint32_t> index = s.Uint32(4);
      return ForEachBytes(Data(source), source.size(), 2, [&](std::string_view target) {
        MessageFields t;
        values.clear();
        if (!ParseView(target, &t) ||
            !RepeatedVarints(Data(target), target.size(), 2, false, &values)) {
          return false;
        }
        row_.assign(10, MatchValue());
        row_[0] = dealer_slot;
        row_[1] = Read(t, {"target_slot", 1, Kind::kUint});
        if (index) {
          row_[2] = MatchValue::Int(*index);
          if (*index < source_names.size()) {
            row_[3] = MatchValue::Text(source_names[*index]);
            row_[5] = MatchValue::Int(IsDamageCategory(source_names[*index]) ? 1 : 0);
          }
          if (*index < stat_types.size()) row_[4] = MatchValue::Int(stat_types[*index]);
        }
        // A cell's values are running totals over the last values.size()
        // sample times: a pair that first met late has a shorter array.
        const size_t first = values.size() <= times.size() ? times.size() - values.size() : 0;
        if (values.size() > times.size()) ++misaligned_damage_cells_;
        int64_t before = 0;
        for (size_t k = 0; k < values.size(); ++k) {
          const size_t sample = first + k;
          row_[6] = MatchValue::Int(static_cast<int64_t>(sample));
          row_[7] = sample < times.size() ? MatchValue::Int(times[sample]) : MatchValue();
          row_[8] = MatchValue::Int(values[k]);
          row_[9] = MatchValue::Int(values[k] - before);
          before = values[k];
          ctx.Row(kRecordDamage, row_);
        }
        return true;
      });
    });
  });
}

bool PostMatch::Paths(MatchContext& ctx, std::string_view paths) {
  MessageFields m;
  if (!ParseView(paths, &m)) return false;
  const std::optional<double> interval = m.Real(2);
  const double x_res = m.Uint32(3).value_or(0), y_res = m.Uint32(4).value_or(0);
  std::vector<int64_t> xs, ys, health, combat, move;
  return ForEachBytes(Data(paths), paths.size(), 5, [&](std::string_view path) {
    MessageFields p;
    xs.clear(), ys.clear(), health.clear(), combat.clear(), move.clear();
    if (!ParseView(path, &p) || !RepeatedVarints(Data(path), path.size(), 6, false, &xs) ||
        !RepeatedVarints(Data(path), path.size(), 7, false, &ys) ||
        !RepeatedVarints(Data(path), path.size(), 9, false, &health) ||
        !RepeatedVarints(Data(path), path.size(), 10, true, &combat) ||
        !RepeatedVarints(Data(path), path.size(), 11, true, &move)) {
      return false;
    }
    const std::optional<double> x_min = p.Real(2), y_min = p.Real(3), x_max = p.Real(4),
                                y_max = p.Real(5);
    const MatchValue slot = Read(p, {"slot", 1, Kind::kUint});
    for (size_t k = 0; k < xs.size(); ++k) {
      row_.assign(8, MatchValue());
      row_[0] = slot;
      row_[1] = MatchValue::Int(static_cast<int64_t>(k));
      if (interval) row_[2] = MatchValue::Real(*interval * static_cast<double>(k));
      if (x_min && x_max && x_res > 0) {
        row_[3] = MatchValue::Real(*x_min + xs[k] / x_res * (*x_max - *x_min));
      }
      if (k < ys.size() && y_min && y_max && y_res > 0) {
        row_[4] = MatchValue::Real(*y_min + ys[k] / y_res * (*y_max - *y_min));
      }
      if (k < health.size()) row_[5] = MatchValue::Int(health[k]);
      if (k < combat.size()) row_[6] = MatchValue::Int(combat[k]);
      if (k < move.size()) row_[7] = MatchValue::Int(move[k]);
      ctx.Row(kRecordPaths, row_);
    }
    return true;
  });
}

}  // namespace gem::deadlock
