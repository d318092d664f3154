#include "core/dota/player_events.h"

#include <cmath>
#include <map>

#include "core/dota/tables.h"

namespace gem::dota {
namespace {

constexpr double kMultiKillSeconds = 18;
constexpr int64_t kFirstStreak = 3;

// `what` the used column ("ability", "item"); `entry` the combat-log type.
std::vector<TableColumn> UseColumns(const char* what, const char* entry) {
  const std::string e = entry;
  return {{"slot", "INTEGER NOT NULL",
           "the player (players.slot) whose hero is the entry's attacker (its caster, as OpenDota "
           "credits it)"},
          {what, "TEXT",
           std::string("the ") + what +
               ", the entry's inflictor by its CombatLogNames name (" +
               (e == "DOTA_COMBATLOG_ABILITY" ? "axe_berserkers_call" : "item_blink") +
               "); NULL when the entry names none or the name is not in CombatLogNames then"},
          {"target", "TEXT",
           "the entry's target by its CombatLogNames name (npc_dota_hero_axe); NULL when it names "
           "none (a " + e + " entry without a target) or the name is not in CombatLogNames then"},
          {"target_hero", "INTEGER",
           "1 when the entry flags the target a hero (is_target_hero), else 0; NULL without a "
           "target"},
          {"target_illusion", "INTEGER",
           "1 when the entry flags the target an illusion (is_target_illusion), else 0; NULL "
           "without a target: a real hero is target_hero = 1 AND target_illusion = 0"}};
}

// The multi_kills and kill_streaks columns: `count` the counted column.
std::vector<TableColumn> StreakColumns(const char* count, const char* count_doc) {
  return {{"slot", "INTEGER NOT NULL",
           "the player (players.slot) who made the kill: the player whose hero is the entry's "
           "attacker, or the kills table's killer"},
          {count, "INTEGER NOT NULL", count_doc},
          {"source", "TEXT NOT NULL",
           "where the row comes from: combat_log (the entry's value, its attacker's player) or "
           "rule (gem's reading of the kills table, for a replay without such entries)"}};
}

MatchValue NameCell(std::string_view name) {
  return name.empty() ? MatchValue() : MatchValue::Text(name);
}

}  // namespace

TableSpec AbilityUsesTable() {
  return EventTable(
      "ability_uses",
      "an ability a player's hero cast: each DOTA_COMBATLOG_ABILITY entry whose attacker is a "
      "player's hero (OpenDota's ability_uses). Casters that are no player's hero (neutrals, "
      "summons) are counted in meta ability_uses_without_player, not rows",
      UseColumns("ability", "DOTA_COMBATLOG_ABILITY"));
}

TableSpec ItemUsesTable() {
  return EventTable(
      "item_uses",
      "an item a player's hero used: each DOTA_COMBATLOG_ITEM entry whose attacker is a "
      "player's hero (OpenDota's item_uses). Users that are no player's hero are counted in "
      "meta item_uses_without_player, not rows",
      UseColumns("item", "DOTA_COMBATLOG_ITEM"));
}

TableSpec MultiKillsTable() {
  return EventTable(
      "multi_kills",
      "a kill that made a multi-kill: the combat log's DOTA_COMBATLOG_MULTIKILL entries (source "
      "combat_log; one whose attacker is no player's hero is counted in meta "
      "streak_entries_without_player, not a row), or, in a replay with no such entry at all, "
      "gem's reading of the game's rule over the kills table (source rule): a player's kill of "
      "an enemy hero within 18 s (counted in ticks, pauses included) of that player's previous "
      "one extends a multi-kill, a row at each kill from the second (a triple kill: rows of 2 "
      "and 3). Rule rows are written when the replay ends",
      StreakColumns("kills",
                    "the kills in the multi-kill so far: 2 double, 3 triple, ... (the entry's "
                    "value)"));
}

TableSpec KillStreaksTable() {
  return EventTable(
      "kill_streaks",
      "a kill that made a streak of 3 or more: the combat log's DOTA_COMBATLOG_KILLSTREAK "
      "entries (source combat_log; one whose attacker is no player's hero is counted in meta "
      "streak_entries_without_player, not a row), or, in a replay with no such entry at all, "
      "gem's reading of the game's rule over the kills table (source rule): each kill of an "
      "enemy hero extends the killer's streak until the killer dies (any row of the kills table "
      "with the player as victim), a row at each kill from the third. Rule rows are written "
      "when the replay ends",
      StreakColumns("streak",
                    "the kills of enemy heroes since the player last died, this one included "
                    "(the entry's value)"));
}

void PlayerEvents::Use(match::MatchContext& ctx, uint32_t table, const CombatLogEntry& c,
                       const MatchValue& game_time, uint64_t* without_player) {
  const int slot = roster_->SlotOfHeroName(ctx, c.attacker_name);
  if (slot < 0) {
    ++*without_player;
    return;
  }
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  const bool target = !c.target_name.empty();
  row_.assign({MatchValue::Int(ctx.tick()), game_time, MatchValue::Int(slot),
               NameCell(c.inflictor_name), NameCell(c.target_name),
               target ? MatchValue::Int(e.is_target_hero() ? 1 : 0) : MatchValue(),
               target ? MatchValue::Int(e.is_target_illusion() ? 1 : 0) : MatchValue()});
  ctx.Row(table, row_);
}

void PlayerEvents::OnCombatLog(match::MatchContext& ctx, const CombatLogEntry& c,
                               const MatchValue& game_time) {
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  switch (e.type()) {
    case kCombatLogAbility:
      Use(ctx, kAbilityUses, c, game_time, &abilities_without_player_);
      return;
    case kCombatLogItem:
      Use(ctx, kItemUses, c, game_time, &items_without_player_);
      return;
    case kCombatLogMultikill:
    case kCombatLogKillstreak: {
      const bool multi = e.type() == kCombatLogMultikill;
      ++(multi ? multikill_entries_ : killstreak_entries_);
      const int slot = roster_->SlotOfHeroName(ctx, c.attacker_name);
      if (slot < 0) {
        ++streak_entries_without_player_;
        return;
      }
      row_.assign({MatchValue::Int(ctx.tick()), game_time, MatchValue::Int(slot),
                   MatchValue::Int(e.value()), MatchValue::Text("combat_log")});
      ctx.Row(multi ? kMultiKills : kKillStreaks, row_);
      return;
    }
    default:
      return;
  }
}

void PlayerEvents::OnKill(match::MatchContext& ctx, const KillRow& k) {
  Kill kill{k.tick, k.game_time, k.killer.value_or(-1), k.victim, false};
  if (kill.killer >= 0 && kill.killer < kMaxPlayers && kill.victim >= 0 &&
      kill.victim < kMaxPlayers) {
    std::span<Roster::Slot> slots = roster_->heroes(ctx);
    kill.enemy = slots[kill.killer].team != 0 && slots[kill.victim].team != 0 &&
                 slots[kill.killer].team != slots[kill.victim].team;
  }
  kills_.push_back(kill);
}

void PlayerEvents::Finish(match::MatchContext& ctx) {
  const double rate = ctx.tick_interval() > 0 ? 1.0 / ctx.tick_interval() : 30;
  const int64_t window = std::llround(kMultiKillSeconds * rate);
  struct Run {
    int64_t last_tick = 0;
    int64_t multi = 0;   // kills in the multi-kill so far
    int64_t streak = 0;  // kills since the player's last death
  };
  std::map<int32_t, Run> runs;
  for (const Kill& k : kills_) {
    runs[k.victim].streak = 0;
    if (!k.enemy) continue;
    Run& r = runs[k.killer];
    r.multi = r.multi > 0 && k.tick - r.last_tick <= window ? r.multi + 1 : 1;
    r.last_tick = k.tick;
    ++r.streak;
    if (multikill_entries_ == 0 && r.multi >= 2) {
      row_.assign({MatchValue::Int(k.tick), k.game_time, MatchValue::Int(k.killer),
                   MatchValue::Int(r.multi), MatchValue::Text("rule")});
      ctx.Row(kMultiKills, row_);
    }
    if (killstreak_entries_ == 0 && r.streak >= kFirstStreak) {
      row_.assign({MatchValue::Int(k.tick), k.game_time, MatchValue::Int(k.killer),
                   MatchValue::Int(r.streak), MatchValue::Text("rule")});
      ctx.Row(kKillStreaks, row_);
    }
  }
}

std::vector<std::pair<std::string, uint64_t>> PlayerEvents::Counters() const {
  return {{"combat_log_multikill_entries", multikill_entries_},
          {"combat_log_killstreak_entries", killstreak_entries_},
          {"ability_uses_without_player", abilities_without_player_},
          {"item_uses_without_player", items_without_player_},
          {"streak_entries_without_player", streak_entries_without_player_}};
}

}  // namespace gem::dota
