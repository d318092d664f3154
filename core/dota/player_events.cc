#include "core/dota/player_events.h"

#include <cmath>
#include <map>

#include "core/dota/tables.h"

namespace gem::dota {
namespace {

constexpr double kMultiKillSeconds = 18;
constexpr int64_t kFirstStreak = 3;

std::vector<TableColumn> UseColumns(const char* what) {
  return {{"slot", "INTEGER NOT NULL"},
          {what, "TEXT"},
          {"target", "TEXT"},
          {"target_hero", "INTEGER"},
          {"target_illusion", "INTEGER"}};
}

MatchValue NameCell(std::string_view name) {
  return name.empty() ? MatchValue() : MatchValue::Text(name);
}

}  // namespace

TableSpec AbilityUsesTable() {
  return EventTable("ability_uses", "an ability a player's hero cast (DOTA_COMBATLOG_ABILITY)",
                    UseColumns("ability"));
}

TableSpec ItemUsesTable() {
  return EventTable("item_uses", "an item a player's hero used (DOTA_COMBATLOG_ITEM)",
                    UseColumns("item"));
}

TableSpec MultiKillsTable() {
  return EventTable("multi_kills",
                    "a kill that made a multi-kill (DOTA_COMBATLOG_MULTIKILL, else 18 s apart)",
                    {{"slot", "INTEGER NOT NULL"},
                     {"kills", "INTEGER NOT NULL"},
                     {"source", "TEXT NOT NULL"}});
}

TableSpec KillStreaksTable() {
  return EventTable("kill_streaks",
                    "a kill that made a streak of 3 or more (DOTA_COMBATLOG_KILLSTREAK, else "
                    "kills without dying)",
                    {{"slot", "INTEGER NOT NULL"},
                     {"streak", "INTEGER NOT NULL"},
                     {"source", "TEXT NOT NULL"}});
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
