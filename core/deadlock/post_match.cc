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
};

constexpr Flat kMatchFlat[] = {
    {"match_id", 6, Kind::kUint64},   {"duration_s", 1, Kind::kUint},
    {"outcome", 2, Kind::kInt},       {"winning_team", 3, Kind::kInt},
    {"game_mode", 9, Kind::kInt},     {"match_mode", 10, Kind::kInt},
    {"start_time", 5, Kind::kUint},
};
// After slot, account_id, team, hero_id and hero.
constexpr Flat kPlayerFlat[] = {
    {"kills", 8, Kind::kUint},          {"deaths", 9, Kind::kUint},
    {"assists", 10, Kind::kUint},       {"net_worth", 11, Kind::kUint},
    {"last_hits", 13, Kind::kUint},     {"denies", 14, Kind::kUint},
    {"ability_points", 15, Kind::kUint}, {"assigned_lane", 17, Kind::kUint},
    {"level", 18, Kind::kUint},         {"abandon_time_s", 23, Kind::kUint},
    {"mvp_rank", 28, Kind::kUint},
};
// After slot. The record's gold_* fields are souls.
constexpr Flat kStatsFlat[] = {
    {"time_s", 1, Kind::kUint},
    {"net_worth", 2, Kind::kUint},
    {"souls_player", 3, Kind::kUint},
    {"souls_player_orbs", 4, Kind::kUint},
    {"souls_lane_creep_orbs", 5, Kind::kUint},
    {"souls_neutral_creep_orbs", 6, Kind::kUint},
    {"souls_boss", 7, Kind::kUint},
    {"souls_boss_orb", 8, Kind::kUint},
    {"souls_treasure", 9, Kind::kUint},
    {"souls_denied", 10, Kind::kUint},
    {"souls_death_loss", 11, Kind::kUint},
    {"souls_lane_creep", 12, Kind::kUint},
    {"souls_neutral_creep", 13, Kind::kUint},
    {"kills", 14, Kind::kUint},
    {"deaths", 15, Kind::kUint},
    {"assists", 16, Kind::kUint},
    {"creep_kills", 17, Kind::kUint},
    {"neutral_kills", 18, Kind::kUint},
    {"creep_damage", 20, Kind::kUint},
    {"player_damage", 21, Kind::kUint},
    {"neutral_damage", 22, Kind::kUint},
    {"boss_damage", 23, Kind::kUint},
    {"denies", 24, Kind::kUint},
    {"player_healing", 25, Kind::kUint},
    {"ability_points", 26, Kind::kUint},
    {"self_healing", 27, Kind::kUint},
    {"player_damage_taken", 28, Kind::kUint},
    {"max_health", 29, Kind::kUint},
    {"weapon_power", 30, Kind::kUint},
    {"tech_power", 31, Kind::kUint},
    {"shots_hit", 32, Kind::kUint},
    {"shots_missed", 33, Kind::kUint},
    {"level", 43, Kind::kUint},
};
// After slot, time_s and source.
constexpr Flat kSoulsFlat[] = {
    {"kills", 2, Kind::kUint}, {"damage", 3, Kind::kUint},
    {"souls", 4, Kind::kUint}, {"souls_orbs", 5, Kind::kUint},
};
constexpr Flat kObjectiveFlat[] = {
    {"team", 10, Kind::kInt},
    {"team_objective_id", 9, Kind::kInt},
    {"legacy_objective_id", 1, Kind::kInt},
    {"first_damage_time_s", 8, Kind::kUint},
    {"destroyed_time_s", 2, Kind::kUint},
    {"creep_damage", 4, Kind::kUint},
    {"creep_damage_mitigated", 5, Kind::kUint},
    {"player_damage", 6, Kind::kUint},
    {"player_damage_mitigated", 7, Kind::kUint},
    {"player_spirit_damage", 11, Kind::kUint},
};
constexpr Flat kMidBossFlat[] = {
    {"team_killed", 1, Kind::kInt},
    {"team_claimed", 2, Kind::kInt},
    {"destroyed_time_s", 3, Kind::kUint},
};
constexpr Flat kPauseFlat[] = {
    {"time_s", 1, Kind::kUint}, {"duration_s", 2, Kind::kUint}, {"slot", 3, Kind::kUint},
};

// EGoldSource, by value.
const char* const kSoulSources[] = {
    nullptr,        "players",   "lane_creeps",         "neutrals",
    "bosses",       "treasure",  "assists",             "denies",
    "team_bonus",   "ability_assassinate", "item_trophy_collector",
    "item_cultist_sacrifice", "breakable", "item_goose_egg",
};

const char* TypeOf(Kind k) { return k == Kind::kReal ? "REAL" : "INTEGER"; }

TableSpec Spec(const char* name, const char* comment,
               std::initializer_list<std::pair<const char*, const char*>> head,
               std::span<const Flat> flat = {},
               std::initializer_list<std::pair<const char*, const char*>> tail = {}) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  for (const auto& [c, type] : head) t.columns.push_back({c, type});
  for (const Flat& f : flat) t.columns.push_back({f.column, TypeOf(f.kind)});
  for (const auto& [c, type] : tail) t.columns.push_back({c, type});
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
  s->tables[kRecordMatch] = Spec("record_match", "the post-match record: the match",
                                 {{"tick", "INTEGER NOT NULL"}}, kMatchFlat);
  s->tables[kRecordPlayers] = Spec(
      "record_players", "the post-match record: a player",
      {{"slot", kInt}, {"account_id", kInt}, {"team", kInt}, {"hero_id", kInt},
       {"hero", "TEXT"}},
      kPlayerFlat);
  s->tables[kRecordStats] = Spec("record_stats",
                                 "the post-match record: a player's stats at a sample time",
                                 {{"slot", kInt}}, kStatsFlat);
  s->tables[kRecordSouls] = Spec(
      "record_souls", "the post-match record: a player's souls from one source at a sample time",
      {{"slot", kInt}, {"time_s", kInt}, {"source", "TEXT"}}, kSoulsFlat);
  s->tables[kRecordItems] = Spec(
      "record_items", "the post-match record: an item a player bought",
      {{"slot", kInt}, {"time_s", kInt}, {"item_id", kInt}, {"item", "TEXT"},
       {"upgrade_id", kInt}, {"sold_time_s", kInt}, {"flags", kInt},
       {"imbued_ability_id", kInt}});
  s->tables[kRecordDeaths] = Spec(
      "record_deaths", "the post-match record: a player's death",
      {{"slot", kInt}, {"time_s", kInt}, {"killer_slot", kInt}, {"time_to_kill_s", "REAL"},
       {"death_duration_s", kInt}, {"x", "REAL"}, {"y", "REAL"}, {"z", "REAL"},
       {"killer_x", "REAL"}, {"killer_y", "REAL"}, {"killer_z", "REAL"}});
  s->tables[kRecordObjectives] = Spec("record_objectives", "the post-match record: an objective",
                                      {}, kObjectiveFlat);
  s->tables[kRecordMidBoss] =
      Spec("record_mid_boss", "the post-match record: a mid boss kill", {}, kMidBossFlat);
  s->tables[kRecordPauses] =
      Spec("record_pauses", "the post-match record: a pause", {}, kPauseFlat);
  s->tables[kRecordDamage] = Spec(
      "record_damage",
      "the post-match record's damage matrix: a dealer's value from one source on one target "
      "at one sample",
      {{"dealer_slot", kInt}, {"target_slot", kInt}, {"source_index", kInt},
       {"source_name", "TEXT"}, {"stat_type", kInt}, {"category", kInt}, {"sample", kInt},
       {"time_s", kInt}, {"value", kInt}, {"gained", kInt}});
  s->tables[kRecordPaths] = Spec(
      "record_paths", "the post-match record: a player's path, a row a sample",
      {{"slot", kInt}, {"sample", kInt}, {"time_s", "REAL"}, {"x", "REAL"}, {"y", "REAL"},
       {"health", kInt}, {"combat_type", kInt}, {"move_type", kInt}});
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
