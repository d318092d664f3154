#include "tools/synth/draft.h"

#include <algorithm>
#include <set>

#include "core/dota/hero_names.h"

namespace gem::synth {
namespace {

constexpr int kRadiant = 2, kDire = 3;
constexpr int kStateHeroSelection = 2, kStateStrategy = 3;
constexpr uint32_t kTurnTicks = 20;
// A captains' draft: 'b' a ban, 'p' a pick; 'A' the first team's turn,
// 'B' the other's.
constexpr const char* kOrder[] = {"bA", "bB", "bA", "bB", "pA", "pB", "pB", "pA",
                                  "bA", "bB", "bA", "bB", "bA", "bB", "pB", "pA",
                                  "pA", "pB", "bA", "bB", "bA", "bB", "pA", "pB"};

}  // namespace

std::string Draft::Name(const char* array, int i, const char* field) const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s.%04d%s", array, i, field);
  return buf;
}

void Draft::Start(uint32_t start, uint32_t pregame, const PlayerStats& players, FILE* truth) {
  truth_ = truth;
  for (const auto& [index, e] : world_->entities()) {
    if (e->class_name() == "CDOTAGamerulesProxy") rules_ = e.get();
    if (e->class_name() == "CDOTA_PlayerResource") resource_ = e.get();
  }
  if (rules_ == nullptr || resource_ == nullptr) return;
  std::vector<std::pair<int, int64_t>> team_heroes[2];
  std::set<int64_t> taken;
  for (const PlayerStats::View& p : players.players()) {
    const int64_t id =
        world_->GetInt(*resource_, Name("m_vecPlayerTeamData", p.slot, ".m_nSelectedHeroID"), -1);
    if (id <= 0) continue;
    heroes_.push_back({p.slot, id});
    team_heroes[p.team == kRadiant ? 0 : 1].push_back({p.slot, id});
    taken.insert(id);
  }
  // Bans: heroes no player has, in a random order.
  std::vector<int64_t> bannable;
  for (int64_t id = 1; id < 160; ++id) {
    if (!dota::HeroName(id).empty() && taken.count(id) == 0) bannable.push_back(id);
  }
  std::shuffle(bannable.begin(), bannable.end(), *rng_);
  const int first = (*rng_)() % 2 == 0 ? kRadiant : kDire;
  size_t next_ban = 0, next_pick[2] = {0, 0};
  uint32_t tick = start;
  for (const char* step : kOrder) {
    tick += kTurnTicks;
    const int team = step[1] == 'A' ? first : (first == kRadiant ? kDire : kRadiant);
    Action a{tick, team, step[0] == 'p', 0, -1};
    if (a.is_pick) {
      auto& mine = team_heroes[team == kRadiant ? 0 : 1];
      size_t& k = next_pick[team == kRadiant ? 0 : 1];
      if (k >= mine.size()) continue;
      a.slot = mine[k].first;
      a.hero_id = mine[k++].second;
    } else {
      if (next_ban >= bannable.size()) continue;
      a.hero_id = bannable[next_ban++];
    }
    actions_.push_back(a);
  }
  strategy_tick_ = std::min(tick + kTurnTicks, pregame);
  // Hero selection: nothing chosen yet, the first team's turn.
  world_->Set(rules_, "m_pGameRules.m_nGameState", Value::Int(kStateHeroSelection));
  world_->Set(rules_, "m_pGameRules.m_vecNewBannedHeroes", Value::Uint(0));
  for (int i = 0; i < 24; ++i) {
    world_->Set(rules_, Name("m_pGameRules.m_BannedHeroes", i, ""), Value::Int(0));
    world_->Set(rules_, Name("m_pGameRules.m_SelectedHeroes", i, ""), Value::Int(0));
  }
  if (!actions_.empty()) {
    world_->Set(rules_, "m_pGameRules.m_iActiveTeam", Value::Int(actions_[0].team));
  }
  for (const auto& [slot, id] : heroes_) {
    world_->Set(resource_, Name("m_vecPlayerTeamData", slot, ".m_nSelectedHeroID"),
                Value::Int(-1));
  }
  std::vector<std::tuple<bool, uint32_t, int32_t>> file_info;
  for (const Action& a : actions_) {
    file_info.emplace_back(a.is_pick, static_cast<uint32_t>(a.team),
                           static_cast<int32_t>(a.hero_id));
  }
  world_->SetFileInfoDraft(std::move(file_info));
}

void Draft::Tick(uint32_t tick) {
  if (rules_ == nullptr) return;
  while (next_ < actions_.size() && actions_[next_].tick <= tick) {
    const Action& a = actions_[next_++];
    if (a.is_pick) {
      world_->Set(rules_, Name("m_pGameRules.m_SelectedHeroes", picks_++, ""),
                  Value::Int(a.hero_id));
    } else {
      world_->Set(rules_, Name("m_pGameRules.m_BannedHeroes", bans_++, ""),
                  Value::Int(a.hero_id));
    }
    // The turn passes in the same packet.
    world_->Set(rules_, "m_pGameRules.m_iActiveTeam",
                Value::Int(next_ < actions_.size() ? actions_[next_].team : 0));
    ++done_;
    if (truth_ != nullptr) {
      std::fprintf(truth_,
                   "{\"kind\":\"draft\",\"ord\":%llu,\"tick\":%u,\"team\":%d,\"is_pick\":%d,"
                   "\"hero_id\":%lld,\"slot\":%s}\n",
                   static_cast<unsigned long long>(done_), tick, a.team, a.is_pick ? 1 : 0,
                   static_cast<long long>(a.hero_id),
                   a.slot >= 0 ? std::to_string(a.slot).c_str() : "null");
    }
  }
  if (tick == strategy_tick_) {
    world_->Set(rules_, "m_pGameRules.m_nGameState", Value::Int(kStateStrategy));
  }
  // In the strategy time the players take their heroes, one a packet.
  if (tick > strategy_tick_ && !heroes_.empty()) {
    const size_t k = (tick - strategy_tick_) / 2 - 1;
    if (k < heroes_.size()) {
      world_->Set(resource_, Name("m_vecPlayerTeamData", heroes_[k].first, ".m_nSelectedHeroID"),
                  Value::Int(heroes_[k].second));
    }
  }
}

}  // namespace gem::synth
