#include "core/dota/draft.h"

#include <algorithm>
#include <cstdio>

#include "core/dota/hero_names.h"
#include "core/dota/tables.h"

namespace gem::dota {
namespace {

// The rules arrays' length in current builds; the variable one is read
// up to its length.
constexpr int kRulesSlots = 24;
constexpr int kMaxNewBans = 64;
constexpr int64_t kStateHeroSelection = 2, kStatePreGame = 4, kStateGameInProgress = 5,
                  kStateDisconnect = 7;

int64_t TeamCell(std::optional<int64_t> v) {
  return v && (*v == kTeamRadiant || *v == kTeamDire) ? *v : 0;
}

}  // namespace

TableSpec DraftTable() {
  TableSpec t;
  t.name = "draft";
  t.comment =
      "a pick or ban of hero selection, in order, from the game rules (m_pGameRules, read at "
      "each frame's end until the game leaves hero selection): bans as m_vecNewBannedHeroes "
      "lists them (All Pick's nominations the roll kept, which CHAT_MESSAGE_HERO_BANNED names "
      "too), else m_BannedHeroes (captains' modes); picks as m_SelectedHeroes lists them, else "
      "each player's m_nSelectedHeroID as it becomes a hero. A game sent back to hero "
      "selection before the horn drafts again: its last draft is the table. Checked against "
      "the file info's picks and bans (meta draft_file_info_entries, "
      "draft_file_info_mismatches); a replay whose game rules show no draft (one that starts "
      "after it) has the file info's (source file_info). Written at the horn (m_nGameState "
      "5-7), or at the replay's end for a game that never gets there";
  t.columns = {
      {"ord", "INTEGER PRIMARY KEY",
       "the order, from 1: as the rows first appeared (a frame's in array order, bans first, "
       "then picks), or the file info's order"},
      {"tick", "INTEGER",
       "the tick of the frame at whose end it was first seen; NULL from the file info"},
      {"game_time", "REAL",
       "the game clock then, in seconds (negative: before the horn), counted back from the "
       "horn's tick while hero selection shows no clock; NULL from the file info or when the "
       "replay never tells when the horn is"},
      {"team", "INTEGER",
       "the team that picked or banned (2 Radiant, 3 Dire): the active team (m_iActiveTeam) "
       "before the frame that showed it, else, for a pick, the team of the player who has the "
       "hero; from the file info its team; NULL when none of these is Radiant or Dire"},
      {"is_pick", "INTEGER NOT NULL", "1 for a pick, 0 for a ban"},
      {"hero_id", "INTEGER NOT NULL", "the hero, by Valve's hero id (HeroID_t)"},
      {"hero", "TEXT",
       "the hero's name as the combat log writes it (npc_dota_hero_axe), from gem's table of "
       "Valve's ids (as odota/dotaconstants lists them for 7.40); NULL for an id it lacks"},
      {"slot", "INTEGER",
       "for a pick, the player (players.slot) whose m_nSelectedHeroID is the hero when hero "
       "selection ends (m_nGameState 4-7, else the replay's end; from the file info, the "
       "replay's end), or the player whose m_nSelectedHeroID it was read off; NULL for a ban or "
       "when no player has it"},
      {"source", "TEXT NOT NULL",
       "game_rules (the rules entity's draft) or file_info (the file info's picks_bans, for a "
       "replay whose game rules show no draft)"}};
  return t;
}

match::FieldReader& Draft::Indexed(std::vector<std::unique_ptr<match::FieldReader>>& readers,
                                   const char* format, int i) {
  if (static_cast<size_t>(i) >= readers.size()) readers.resize(i + 1);
  if (!readers[i]) {
    char buf[96];
    std::snprintf(buf, sizeof buf, format, i);
    readers[i] = std::make_unique<match::FieldReader>(std::string(buf));
  }
  return *readers[i];
}

bool Draft::Polls(const Entity* rules) {
  if (rules == nullptr || written_) return false;
  if (!ended_) return true;
  const int64_t state = match::ReadInt(state_, rules).value_or(0);
  // The horn has sounded: the draft is the one played, and is written.
  if (state >= kStateGameInProgress && state <= kStateDisconnect) return true;
  // A game that goes back to hero selection before it (a lobby restarted)
  // drafts again: the draft is its last one.
  if (state != kStateHeroSelection) return false;
  ended_ = resolved_ = false;
  seen_.clear();
  known_.clear();
  pick_slots_.clear();
  std::fill(std::begin(player_hero_), std::end(player_hero_), 0);
  active_before_ = 0;
  return true;
}

void Draft::OnFrameEnd(match::MatchContext& ctx, const Entity* rules,
                       const MatchValue& game_time) {
  if (rules == nullptr || written_) return;
  if (!ended_) {
    Poll(ctx, rules, game_time);
  } else {
    WriteRules(ctx);  // (Polls saw the game in progress)
  }
}

void Draft::Poll(match::MatchContext& ctx, const Entity* rules, const MatchValue& game_time) {
  const int64_t tick = ctx.tick();
  auto add = [&](Source source, int64_t hero, int64_t team, int slot) {
    if (hero <= 0) return;
    if (source != kPlayerPicks && !known_.insert({source, hero}).second) return;
    seen_.push_back({tick, game_time, source, hero, team, slot});
  };
  for (int i = 0; i < kRulesSlots; ++i) {
    add(kRulesBans,
        match::ReadInt(Indexed(banned_, "m_pGameRules.m_BannedHeroes.%04d", i), rules).value_or(0),
        active_before_, -1);
  }
  const int64_t bans = std::clamp<int64_t>(
      match::ReadInt(new_banned_count_, rules).value_or(0), 0, kMaxNewBans);
  for (int i = 0; i < bans; ++i) {
    add(kNewBans,
        match::ReadInt(Indexed(new_banned_, "m_pGameRules.m_vecNewBannedHeroes.%04d", i), rules)
            .value_or(0),
        active_before_, -1);
  }
  for (int i = 0; i < kRulesSlots; ++i) {
    add(kRulesPicks,
        match::ReadInt(Indexed(selected_, "m_pGameRules.m_SelectedHeroes.%04d", i), rules)
            .value_or(0),
        active_before_, -1);
  }
  if (const Entity* res = roster_->resource(ctx)) {
    for (int s = 0; s < kMaxPlayers; ++s) {
      const int64_t team = roster_->TeamOf(res, s);
      if (team == 0) continue;
      const int64_t hero = match::ReadInt(roster_->player(s).selected_hero_id, res).value_or(0);
      if (hero > 0 && hero != player_hero_[s]) add(kPlayerPicks, hero, team, s);
      player_hero_[s] = hero;
    }
  }
  active_before_ = TeamCell(match::ReadInt(active_, rules));
  const int64_t state = match::ReadInt(state_, rules).value_or(0);
  if (state >= kStatePreGame && state <= kStateDisconnect) {
    ended_ = true;
    ResolveSlots(ctx);
  }
}

void Draft::ResolveSlots(match::MatchContext& ctx) {
  resolved_ = true;
  pick_slots_.assign(seen_.size(), -1);
  const Entity* res = roster_->resource(ctx);
  if (res == nullptr) return;
  for (size_t i = 0; i < seen_.size(); ++i) {
    if (seen_[i].slot >= 0) {
      pick_slots_[i] = seen_[i].slot;
      continue;
    }
    for (int s = 0; s < kMaxPlayers; ++s) {
      if (roster_->TeamOf(res, s) != 0 &&
          match::ReadInt(roster_->player(s).selected_hero_id, res) == seen_[i].hero_id) {
        pick_slots_[i] = s;
      }
    }
  }
}

void Draft::WriteRules(match::MatchContext& ctx) {
  written_ = true;
  if (!resolved_) ResolveSlots(ctx);
  bool has[4] = {};
  for (const Seen& s : seen_) has[s.source] = true;
  const Source bans = has[kNewBans] ? kNewBans : kRulesBans;
  const Source picks = has[kRulesPicks] ? kRulesPicks : kPlayerPicks;
  const Entity* res = roster_->resource(ctx);
  std::vector<MatchValue> row;
  int64_t ord = 0;
  std::string hero;
  for (size_t i = 0; i < seen_.size(); ++i) {
    const Seen& s = seen_[i];
    if (s.source != bans && s.source != picks) continue;
    const bool is_pick = s.source == picks;
    const int slot = is_pick ? pick_slots_[i] : -1;
    int64_t team = s.team;
    if (is_pick && team == 0 && slot >= 0 && res != nullptr) team = roster_->TeamOf(res, slot);
    hero = HeroName(s.hero_id);
    ours_.push_back({is_pick, s.hero_id});
    row.assign({MatchValue::Int(++ord), MatchValue::Int(s.tick), s.game_time,
                team ? MatchValue::Int(team) : MatchValue(), MatchValue::Int(is_pick),
                MatchValue::Int(s.hero_id), hero.empty() ? MatchValue() : MatchValue::Text(hero),
                slot >= 0 ? MatchValue::Int(slot) : MatchValue(), MatchValue::Text("game_rules")});
    ctx.Row(kDraft, row);
  }
}

void Draft::Finish(match::MatchContext& ctx) {
  if (!written_) WriteRules(ctx);
  if (file_info_.empty()) return;
  const std::vector<std::pair<bool, int64_t>>& ours = ours_;
  const size_t n = std::max(ours.size(), file_info_.size());
  for (size_t i = 0; i < n; ++i) {
    if (i >= ours.size() || i >= file_info_.size() || ours[i].first != file_info_[i].is_pick ||
        ours[i].second != file_info_[i].hero_id) {
      ++mismatches_;
    }
  }
  if (!ours.empty()) return;
  // The rules showed no draft (a replay that starts later): the server's.
  const Entity* res = roster_->resource(ctx);
  std::vector<MatchValue> row;
  int64_t ord = 0;
  std::string hero;
  for (const FileInfoPick& p : file_info_) {
    int slot = -1;
    if (p.is_pick && res != nullptr) {
      for (int s = 0; s < kMaxPlayers; ++s) {
        if (roster_->TeamOf(res, s) != 0 &&
            match::ReadInt(roster_->player(s).selected_hero_id, res) == p.hero_id) {
          slot = s;
        }
      }
    }
    hero = HeroName(p.hero_id);
    row.assign({MatchValue::Int(++ord), MatchValue(), MatchValue(),
                p.team == kTeamRadiant || p.team == kTeamDire ? MatchValue::Int(p.team)
                                                              : MatchValue(),
                MatchValue::Int(p.is_pick), MatchValue::Int(p.hero_id),
                hero.empty() ? MatchValue() : MatchValue::Text(hero),
                slot >= 0 ? MatchValue::Int(slot) : MatchValue(), MatchValue::Text("file_info")});
    ctx.Row(kDraft, row);
  }
}

std::vector<std::pair<std::string, uint64_t>> Draft::Counters() const {
  return {{"draft_file_info_entries", file_info_.size()},
          {"draft_file_info_mismatches", mismatches_}};
}

}  // namespace gem::dota
