#include "core/dota/lanes.h"

#include <cmath>
#include <cstdlib>

#include "core/dota/roster.h"
#include "core/dota/tables.h"
#include "core/match/game_module.h"

namespace gem::dota {
namespace {

constexpr double kLaningSeconds = 600;
constexpr double kRoamingShare = 0.45;

constexpr const char* kLaneNames[] = {nullptr, "bot", "mid", "top", "radiant_jungle",
                                      "dire_jungle"};
constexpr const char* kRoleNames[] = {nullptr, "safe", "mid", "off", "jungle"};

// OpenDota's lane_role: the lane as the team sees it.
int RoleOf(int lane, bool radiant) {
  switch (lane) {
    case 1: return radiant ? 1 : 3;
    case 2: return 2;
    case 3: return radiant ? 3 : 1;
    case 4:
    case 5: return 4;
    default: return 0;
  }
}

}  // namespace

TableSpec LanesTable() {
  TableSpec t;
  t.name = "lanes";
  t.comment =
      "a player's lane and role in the laning phase (each player with a position in its first "
      "10 minutes), by OpenDota's rule (odota/core's "
      "getLaneFromPosData over odota/parser's lane_pos): every timeline sample of the hero with "
      "game_time <= 600 and a position (hero selection and the pre-game included) is a cell of "
      "a 128 x 128 grid, cx = round(x / 128 + 128), cy likewise (halves up), and each cell a "
      "lane by OpenDota's map, with i = 192 - cy and j = cx - 64, in this order: mid "
      "(|i - (127 - j)| < 8), top (j < 27 or i < 27), bot (j >= 100 or i >= 100), Dire jungle "
      "(i < 50), Radiant jungle (i >= 77), else mid. gem samples once a game second by index "
      "ticks (pauses included), OpenDota once a game second by the clock: the counts can "
      "differ by a pause's samples. Written at the first sample past 600 s, else at the end";
  t.columns = {
      {"slot", "INTEGER PRIMARY KEY", "the player (players.slot)"},
      {"team", "INTEGER",
       "the player's team (2 Radiant, 3 Dire), as the samples counted last had it"},
      {"lane", "INTEGER",
       "the lane most of the samples fall in: 1 bot, 2 mid, 3 top, 4 Radiant jungle, 5 Dire "
       "jungle (a tie to the lane that reached the count first, cells taken cx then cy "
       "ascending, as OpenDota takes them); NULL when no sample is on the grid"},
      {"lane_name", "TEXT",
       "lane's name: bot, mid, top, radiant_jungle, dire_jungle; NULL with lane"},
      {"lane_role", "INTEGER",
       "the lane as the team sees it (OpenDota's lane_role): 1 safe (Radiant's bot, Dire's "
       "top), 2 mid, 3 off (Radiant's top, Dire's bot), 4 jungle; NULL without a lane or a "
       "team"},
      {"role_name", "TEXT", "lane_role's name: safe, mid, off, jungle; NULL with lane_role"},
      {"is_roaming", "INTEGER",
       "1 when the lane holds under 45% of the samples (OpenDota's is_roaming), else 0; NULL "
       "without a lane"},
      {"samples", "INTEGER NOT NULL", "the player's samples in the window that fall on the grid"},
      {"lane_samples", "INTEGER", "of them, those in `lane`; NULL without a lane"}};
  return t;
}

int64_t CellOf(double world) {
  // Math.round: halves up.
  return static_cast<int64_t>(std::floor(world / 128 + 128 + 0.5));
}

int LaneOfCell(int64_t cx, int64_t cy) {
  const int64_t i = 192 - cy, j = cx - 64;
  if (i < 0 || i >= 128 || j < 0 || j >= 128) return 0;
  if (std::llabs(i - (127 - j)) < 8) return 2;
  if (j < 27 || i < 27) return 3;
  if (j >= 100 || i >= 100) return 1;
  if (i < 50) return 5;
  if (i >= 77) return 4;
  return 2;
}

void Lanes::OnSample(match::MatchContext& ctx, int slot, int64_t tick, const MatchValue& team,
                     const MatchValue& game_time, const MatchValue& x, const MatchValue& y) {
  if (written_) return;
  // The clock runs on (it stops in pauses, never goes back): no sample to
  // come is in the window. The sample that showed the clock set the start
  // tick, which times those taken before it.
  if (game_time.kind == MatchValue::Kind::kReal && game_time.r > kLaningSeconds) {
    Finish(ctx, ctx.start_tick());
    return;
  }
  if (x.kind != MatchValue::Kind::kReal || y.kind != MatchValue::Kind::kReal) return;
  const Cell cell{CellOf(x.r), CellOf(y.r)};
  if (game_time.kind != MatchValue::Kind::kReal) {
    pending_.push_back({slot, tick, team, cell});
  } else if (game_time.r <= kLaningSeconds) {
    Count(slot, team, cell);
  }
}

void Lanes::Count(int slot, const MatchValue& team, Cell cell) {
  Player& p = players_[slot];
  if (!team.is_null()) p.team = team;
  ++p.cells[cell];
}

void Lanes::Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick) {
  if (written_) return;
  written_ = true;
  for (const Pending& s : pending_) {
    const MatchValue t = match::GameModule::ClockOrCountedBack(MatchValue(), s.tick, start_tick,
                                                               ctx.tick_interval());
    if (t.kind == MatchValue::Kind::kReal && t.r <= kLaningSeconds) Count(s.slot, s.team, s.cell);
  }
  pending_.clear();
  for (const auto& [slot, p] : players_) {
    int64_t count[6] = {}, samples = 0, best = 0;
    int lane = 0;
    for (const auto& [cell, n] : p.cells) {
      const int l = LaneOfCell(cell.first, cell.second);
      if (l == 0) continue;
      samples += n;
      count[l] += n;
      // The first lane to pass the count so far keeps a tie.
      if (count[l] > best) {
        best = count[l];
        lane = l;
      }
    }
    const bool radiant = p.team.kind == MatchValue::Kind::kInt && p.team.i == kTeamRadiant;
    const bool known_team = p.team.kind == MatchValue::Kind::kInt &&
                            (p.team.i == kTeamRadiant || p.team.i == kTeamDire);
    const int role = known_team ? RoleOf(lane, radiant) : 0;
    const MatchValue row[] = {
        MatchValue::Int(slot),
        p.team,
        lane ? MatchValue::Int(lane) : MatchValue(),
        lane ? MatchValue::Text(kLaneNames[lane]) : MatchValue(),
        role ? MatchValue::Int(role) : MatchValue(),
        role ? MatchValue::Text(kRoleNames[role]) : MatchValue(),
        lane ? MatchValue::Int(static_cast<double>(best) / samples < kRoamingShare ? 1 : 0)
             : MatchValue(),
        MatchValue::Int(samples),
        lane ? MatchValue::Int(best) : MatchValue()};
    ctx.Row(kLanes, row);
  }
}

}  // namespace gem::dota
