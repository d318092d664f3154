#include "core/dota/teamfights.h"

#include <algorithm>
#include <cmath>

#include "core/dota/tables.h"
#include "core/match/game_module.h"

namespace gem::dota {
namespace {

constexpr double kCooldownSeconds = 15;
constexpr int kMinDeaths = 3;

}  // namespace

TableSpec TeamfightsTable() {
  TableSpec t;
  t.name = "teamfights";
  t.comment =
      "a fight, by OpenDota's rule: deaths of players' heroes (the kills table's), each within "
      "15 s of the one before, at least 3 of them; the fight opens 15 s before its first death "
      "and closes 15 s after its last. A fight the replay's end cuts short ends at the last tick "
      "(OpenDota drops it). Written once closed and final, or at the replay's end";
  t.columns = {
      {"id", "INTEGER PRIMARY KEY", "the fight's number, from 1 in order"},
      {"start_tick", "INTEGER NOT NULL",
       "the first death's tick less 15 s of ticks; the replay's first tick when that is before "
       "it (start_clamped)"},
      {"end_tick", "INTEGER NOT NULL",
       "the last death's tick plus 15 s of ticks; at most the replay's last tick (but not "
       "before the last death)"},
      {"start_time", "REAL",
       "the game clock at start_tick: the first death's clock less the seconds from start_tick "
       "to it (counted back from the horn before the replay shows the clock); NULL when "
       "unknown"},
      {"end_time", "REAL",
       "the last death's clock plus 15 s, capped at the clock of the replay's last timeline "
       "sample (but not before the last death); NULL when unknown"},
      {"deaths", "INTEGER NOT NULL", "the number of deaths in it (3 or more)"},
      {"x", "REAL",
       "the centroid of its deaths: the mean x of the victims' positions (world coordinates, "
       "the kills table's x); NULL when none has a position"},
      {"y", "REAL", "the mean y of the victims' positions, by x's rule"},
      {"start_clamped", "INTEGER NOT NULL",
       "1 when the 15 s before its first death begin before the replay does (start_tick is then "
       "the replay's first tick, start_time the clock there), else 0"}};
  return t;
}

TableSpec TeamfightPlayersTable() {
  TableSpec t;
  t.name = "teamfight_players";
  t.comment =
      "a player's part in a fight (OpenDota's teamfights' players): one row per fight and "
      "player on a team when the fight is written, or with a death in it; the sums are the "
      "combat log's over the fight's ticks, start_tick to end_tick inclusive";
  t.columns = {
      {"id", "INTEGER NOT NULL", "the fight (teamfights.id)"},
      {"slot", "INTEGER NOT NULL", "the player (players.slot)"},
      {"deaths", "INTEGER NOT NULL", "the player's hero's deaths in the fight (the kills table's)"},
      {"damage", "INTEGER NOT NULL",
       "the sum of DOTA_COMBATLOG_DAMAGE values to heroes that are not illusions, credited to "
       "the player whose hero is the entry's damage source (an illusion's or summon's owner)"},
      {"healing", "INTEGER NOT NULL",
       "the sum of DOTA_COMBATLOG_HEAL values to heroes that are not illusions, credited as "
       "damage is"},
      {"gold_delta", "INTEGER NOT NULL",
       "the sum of DOTA_COMBATLOG_GOLD values credited to the player whose hero is the entry's "
       "target: gold gained, losses (a death's) negative"},
      {"xp_delta", "INTEGER NOT NULL",
       "the sum of DOTA_COMBATLOG_XP values credited to the player whose hero is the entry's "
       "target"}};
  t.constraints = "PRIMARY KEY(id, slot)";
  t.without_rowid = true;
  return t;
}

int Teamfights::SlotOfName(match::MatchContext& ctx, bool has, uint32_t index,
                           std::string_view name) {
  if (!has || name.empty()) return -1;
  if (roster_->generation() != cached_generation_) {
    slot_by_name_.clear();
    cached_generation_ = roster_->generation();
  }
  // Names index a string table (a few thousand entries at most).
  if (index >= (1u << 20)) return roster_->SlotOfHeroName(ctx, name);
  if (index >= slot_by_name_.size()) slot_by_name_.resize(index + 1, -2);
  int8_t& slot = slot_by_name_[index];
  if (slot == -2) {
    slot = static_cast<int8_t>(roster_->SlotOfHeroName(ctx, name));
    // Looking up may have rebuilt the roster: the cache is of this one.
    if (roster_->generation() != cached_generation_) {
      const int8_t s = slot;
      slot_by_name_.assign(index + 1, -2);
      slot_by_name_[index] = s;
      cached_generation_ = roster_->generation();
    }
  }
  return slot_by_name_[index];
}

void Teamfights::OnCombatLog(match::MatchContext& ctx, const CombatLogEntry& c) {
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  int slot = -1;
  Kind kind;
  switch (e.type()) {
    case kCombatLogDamage:
    case kCombatLogHeal:
      if (!e.is_target_hero() || e.is_target_illusion()) return;
      kind = e.type() == kCombatLogDamage ? kDamage : kHealing;
      slot = SlotOfName(ctx, e.has_damage_source_name(), e.damage_source_name(),
                        c.damage_source_name);
      break;
    case kCombatLogGold:
    case kCombatLogXp:
      kind = e.type() == kCombatLogGold ? kGold : kXp;
      slot = SlotOfName(ctx, e.has_target_name(), e.target_name(), c.target_name);
      break;
    default:
      return;
  }
  if (slot < 0) return;
  // Gold is signed on the wire's 32 bits (a death's loss is negative).
  entries_.push_back({ctx.tick(), static_cast<int32_t>(e.value()), static_cast<int8_t>(kind),
                      static_cast<int8_t>(slot)});
}

void Teamfights::OnDeath(const KillRow& k) {
  deaths_.push_back({k.tick, k.victim, k.game_time, k.x, k.y});
}

void Teamfights::Write(match::MatchContext& ctx, bool at_end, int64_t now, int64_t first_tick,
                       int64_t last_tick, std::optional<double> last_game_time,
                       std::optional<int64_t> start_tick) {
  const double rate = ctx.tick_interval() > 0 ? 1.0 / ctx.tick_interval() : 30;
  // A death's clock: its own, else counted from the start tick.
  auto clock_of = [&](const Death& d) -> std::optional<double> {
    if (d.game_time.kind == MatchValue::Kind::kReal) return d.game_time.r;
    if (start_tick) return static_cast<double>(d.tick - *start_tick) / rate;
    return std::nullopt;
  };
  auto cell = [](std::optional<double> t) {
    return t ? MatchValue::Real(match::GameModule::RoundToMillisecond(*t)) : MatchValue();
  };
  const int64_t cooldown = std::llround(kCooldownSeconds * rate);
  std::vector<MatchValue> row;
  std::span<Roster::Slot> slots;
  while (next_ < deaths_.size()) {
    const size_t i = next_;
    // One fight: deaths each within the cooldown of the one before.
    size_t j = i + 1;
    while (j < deaths_.size() && deaths_[j].tick - deaths_[j - 1].tick <= cooldown) ++j;
    const Death& first = deaths_[i];
    const Death& last = deaths_[j - 1];
    // Before the end: a death at last + cooldown would still join it.
    if (!at_end && now <= last.tick + cooldown) return;
    const bool counts = static_cast<int>(j - i) >= kMinDeaths;
    if (counts && !at_end) {
      // Its times must be final: its clocks known, and the clock past its
      // end_time (the replay's end, at or after now, cannot cap it).
      const std::optional<double> a = clock_of(first), z = clock_of(last);
      if (!a || !z || !last_game_time || *last_game_time < *z + kCooldownSeconds) return;
    }
    next_ = j;
    if (!counts) continue;
    const bool clamped = first.tick - cooldown < first_tick;
    const int64_t start = clamped ? std::min(first_tick, first.tick) : first.tick - cooldown;
    const int64_t end = at_end ? std::min(last.tick + cooldown, std::max(last.tick, last_tick))
                               : last.tick + cooldown;
    const int64_t id = ++id_;
    {
      int64_t deaths[kMaxPlayers] = {}, sums[kMaxPlayers][4] = {};
      double sx = 0, sy = 0;
      int placed = 0;
      for (size_t d = i; d < j; ++d) {
        if (deaths_[d].slot >= 0 && deaths_[d].slot < kMaxPlayers) ++deaths[deaths_[d].slot];
        if (deaths_[d].x.kind == MatchValue::Kind::kReal &&
            deaths_[d].y.kind == MatchValue::Kind::kReal) {
          sx += deaths_[d].x.r;
          sy += deaths_[d].y.r;
          ++placed;
        }
      }
      while (scan_ < entries_.size() && entries_[scan_].tick < start) ++scan_;
      for (size_t k = scan_; k < entries_.size() && entries_[k].tick <= end; ++k) {
        sums[entries_[k].slot][entries_[k].kind] += entries_[k].value;
      }
      std::optional<double> start_time = clock_of(first), end_time = clock_of(last);
      if (start_time) *start_time -= static_cast<double>(first.tick - start) / rate;
      if (end_time) {
        const double last_death = *end_time;
        *end_time += kCooldownSeconds;
        if (last_game_time && *last_game_time < *end_time) {
          *end_time = std::max(*last_game_time, last_death);
        }
      }
      row.assign({MatchValue::Int(id), MatchValue::Int(start), MatchValue::Int(end),
                  cell(start_time), cell(end_time), MatchValue::Int(static_cast<int64_t>(j - i)),
                  placed ? MatchValue::Real(sx / placed) : MatchValue(),
                  placed ? MatchValue::Real(sy / placed) : MatchValue(),
                  MatchValue::Int(clamped ? 1 : 0)});
      ctx.Row(kTeamfights, row);
      if (slots.empty()) slots = roster_->heroes(ctx);
      for (int s = 0; s < kMaxPlayers; ++s) {
        if (slots[s].team == 0 && deaths[s] == 0) continue;
        row.assign({MatchValue::Int(id), MatchValue::Int(s), MatchValue::Int(deaths[s]),
                    MatchValue::Int(sums[s][kDamage]), MatchValue::Int(sums[s][kHealing]),
                    MatchValue::Int(sums[s][kGold]), MatchValue::Int(sums[s][kXp])});
        ctx.Row(kTeamfightPlayers, row);
      }
    }
  }
}

}  // namespace gem::dota
