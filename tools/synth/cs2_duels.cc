// Cs2Match's truth of the duels (see cs2_match.h): the opening duel, the
// trades and the clutches of each round, kept from the match's own record
// of who is alive as each player dies, by the rules core/cs2/stats_views.h
// states (written here apart, for the tests to hold the views to).
#include "tools/synth/cs2_match.h"

namespace gem::synth {
namespace {

constexpr uint32_t kTradeWindowTicks = 5 * 64;

bool EnemyKill(int32_t killer, int32_t victim, int killer_team, int victim_team) {
  return killer >= 0 && killer != victim && killer_team != victim_team;
}

}  // namespace

void Cs2Match::OnDeath(uint32_t tick, const Player* killer, const Player& victim,
                       const std::string& weapon, bool headshot) {
  deaths_.push_back({tick, killer ? killer->slot : -1, victim.slot, killer ? killer->team : 0,
                     victim.team, weapon, headshot});
  // Who is left, now that the victim is not.
  const int t = Alive(2), ct = Alive(3);
  auto last_of = [&](int team) {
    for (const Player& p : players_) {
      if (p.alive && p.team == team) return p.slot;
    }
    return -1;
  };
  auto open = [&](int team, int opponents) {
    clutches_.push_back({last_of(team), team, opponents, tick, deaths_.size()});
  };
  if (clutches_.empty()) {
    if (t == 1 && ct >= 1) open(2, ct);
    if (ct == 1 && t >= 1) open(3, t);
  } else if (clutches_.size() == 1 && t == 1 && ct == 1) {
    open(5 - clutches_[0].team, 1);
  }
}

void Cs2Match::DuelsTruth() {
  const std::string round = std::to_string(round_);
  // The opening duel: the first enemy kill.
  for (const Death& d : deaths_) {
    if (!EnemyKill(d.killer, d.victim, d.killer_team, d.victim_team)) continue;
    Truth("{\"kind\":\"opening\",\"round\":" + round + ",\"tick\":" + std::to_string(d.tick) +
          ",\"attacker\":" + std::to_string(d.killer) + ",\"victim\":" +
          std::to_string(d.victim) + ",\"attacker_team\":" + std::to_string(d.killer_team) +
          ",\"victim_team\":" + std::to_string(d.victim_team) + ",\"weapon\":\"" + d.weapon +
          "\",\"headshot\":" + std::to_string(d.headshot) +
          ",\"won\":" + std::to_string(winner_ == d.killer_team) + "}");
    break;
  }
  // Trades: a death whose killer a teammate of the dead then killed
  // within the window.
  for (size_t i = 0; i < deaths_.size(); ++i) {
    const Death& d = deaths_[i];
    if (!EnemyKill(d.killer, d.victim, d.killer_team, d.victim_team)) continue;
    for (const Death& t : deaths_) {
      if (t.victim != d.killer || t.tick < d.tick || t.tick > d.tick + kTradeWindowTicks ||
          t.killer == d.victim || t.killer_team != d.victim_team ||
          !EnemyKill(t.killer, t.victim, t.killer_team, t.victim_team)) {
        continue;
      }
      Truth("{\"kind\":\"trade\",\"round\":" + round + ",\"tick\":" + std::to_string(t.tick) +
            ",\"trader\":" + std::to_string(t.killer) + ",\"trader_team\":" +
            std::to_string(t.killer_team) + ",\"killer\":" + std::to_string(d.killer) +
            ",\"traded\":" + std::to_string(d.victim) + ",\"traded_tick\":" +
            std::to_string(d.tick) + "}");
    }
  }
  for (const Clutch& c : clutches_) {
    int kills = 0;
    bool survived = true;
    for (size_t i = 0; i < deaths_.size(); ++i) {
      const Death& d = deaths_[i];
      if (d.victim == c.slot) survived = false;
      if (i >= c.after && d.killer == c.slot &&
          EnemyKill(d.killer, d.victim, d.killer_team, d.victim_team)) {
        ++kills;
      }
    }
    Truth("{\"kind\":\"clutch\",\"round\":" + round + ",\"slot\":" + std::to_string(c.slot) +
          ",\"team\":" + std::to_string(c.team) + ",\"opponents\":" +
          std::to_string(c.opponents) + ",\"tick\":" + std::to_string(c.tick) +
          ",\"won\":" + std::to_string(winner_ == c.team) + ",\"kills\":" +
          std::to_string(kills) + ",\"survived\":" + std::to_string(survived) +
          ",\"bomb_planted\":" + std::to_string(plant_tick_ >= 0) +
          ",\"bomb_defused\":" + std::to_string(defused_) + "}");
  }
}

}  // namespace gem::synth
