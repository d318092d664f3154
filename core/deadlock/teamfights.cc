#include "core/deadlock/teamfights.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <string>

#include "core/deadlock/tables.h"

namespace gem::deadlock {
namespace {

constexpr double kGapSeconds = 5.0;   // boon's gap_seconds
constexpr double kRadius = 1500.0;    // boon's radius, world units
constexpr int kMinHeroes = 3;         // boon's min_players
constexpr int kSlots = 64;            // the bits of Fight::heroes

bool InRange(int32_t slot, size_t n) {
  return slot >= 0 && slot < kSlots && static_cast<size_t>(slot) < n;
}

}  // namespace

void Teamfights::OnDamage(int32_t attacker, int32_t victim, MatchValue damage, MatchValue clock) {
  if (attacker < 0 || victim < 0 || attacker == victim) return;
  hits_.push_back({attacker, victim, damage, clock});
}

void Teamfights::OnKill(int32_t victim) {
  if (victim >= 0) kills_.push_back(victim);
}

void Teamfights::OnFrameEnd(int64_t tick, double tick_interval,
                            std::span<const Player> players) {
  if (hits_.empty() && kills_.empty()) return;
  // boon: time_eps = max(1, round(gap_seconds * tick_rate)).
  const int64_t gap =
      tick_interval > 0 ? std::max<int64_t>(1, std::llround(kGapSeconds / tick_interval)) : 1;
  for (const Hit& h : hits_) {
    if (!InRange(h.attacker, players.size()) || !InRange(h.victim, players.size())) continue;
    const Player& a = players[static_cast<size_t>(h.attacker)];
    const Player& v = players[static_cast<size_t>(h.victim)];
    if (a.team < 0 || v.team < 0 || a.team == v.team) continue;
    const Player* at = v.placed ? &v : a.placed ? &a : nullptr;
    if (at == nullptr) {
      ++unplaced_;
      continue;
    }
    // Fights whose last event is more than `gap` back go inactive for good.
    active_.erase(std::remove_if(active_.begin(), active_.end(),
                                 [&](size_t f) { return tick - fights_[f].end_tick > gap; }),
                  active_.end());
    Fight* best = nullptr;
    double best_d = kRadius * kRadius;
    size_t best_index = 0;
    for (size_t f : active_) {
      const double dx = at->x - fights_[f].cx, dy = at->y - fights_[f].cy;
      const double d = dx * dx + dy * dy;
      if (d <= best_d) {  // <=: on a tie the later fight, as boon's sweep
        best = &fights_[f];
        best_d = d;
        best_index = f;
      }
    }
    if (best == nullptr) {
      best_index = fights_.size();
      active_.push_back(best_index);
      Fight& f = fights_.emplace_back();
      f.start_tick = tick;
      f.start_time = h.clock;
      f.cx = at->x;
      f.cy = at->y;
      best = &f;
    }
    Fight& f = *best;
    ++f.events;
    f.end_tick = tick;
    f.end_time = h.clock;
    f.cx += (at->x - f.cx) / static_cast<double>(f.events);
    f.cy += (at->y - f.cy) / static_cast<double>(f.events);
    f.sum_x += at->x;
    f.sum_y += at->y;
    if (h.damage.kind == MatchValue::Kind::kInt) f.damage += h.damage.i;
    f.heroes |= uint64_t{1} << h.attacker | uint64_t{1} << h.victim;
    if (last_fight_of_victim_.size() <= static_cast<size_t>(h.victim)) {
      last_fight_of_victim_.resize(static_cast<size_t>(h.victim) + 1, -1);
    }
    last_fight_of_victim_[static_cast<size_t>(h.victim)] = static_cast<int64_t>(best_index);
  }
  hits_.clear();
  // After the frame's events: boon joins a kill to the last event at or
  // before its tick.
  for (int32_t victim : kills_) {
    if (static_cast<size_t>(victim) >= last_fight_of_victim_.size()) continue;
    const int64_t f = last_fight_of_victim_[static_cast<size_t>(victim)];
    if (f >= 0) ++fights_[static_cast<size_t>(f)].kills;
  }
  kills_.clear();
}

void Teamfights::Write(match::MatchContext& ctx) const {
  std::vector<size_t> kept;
  for (size_t i = 0; i < fights_.size(); ++i) {
    if (std::popcount(fights_[i].heroes) >= kMinHeroes) kept.push_back(i);
  }
  // Fights start in tick order already; stable keeps the order they began.
  std::stable_sort(kept.begin(), kept.end(), [&](size_t a, size_t b) {
    return fights_[a].start_tick < fights_[b].start_tick;
  });
  std::vector<MatchValue> row(kTeamfightColumns);
  std::string slots;
  int64_t number = 0;
  for (size_t i : kept) {
    const Fight& f = fights_[i];
    row[kFightNumber] = MatchValue::Int(++number);
    row[kFightStartTick] = MatchValue::Int(f.start_tick);
    row[kFightEndTick] = MatchValue::Int(f.end_tick);
    row[kFightStartTime] = f.start_time;
    row[kFightEndTime] = f.end_time;
    row[kFightDuration] = f.start_time.kind == MatchValue::Kind::kReal &&
                                  f.end_time.kind == MatchValue::Kind::kReal
                              ? MatchValue::Real(f.end_time.r - f.start_time.r)
                              : MatchValue();
    row[kFightX] = MatchValue::Real(f.sum_x / static_cast<double>(f.events));
    row[kFightY] = MatchValue::Real(f.sum_y / static_cast<double>(f.events));
    row[kFightHeroes] = MatchValue::Int(std::popcount(f.heroes));
    slots.assign(1, '[');
    for (int s = 0; s < kSlots; ++s) {
      if ((f.heroes >> s & 1) == 0) continue;
      char digits[4];
      const std::to_chars_result r = std::to_chars(digits, digits + sizeof digits, s);
      if (slots.size() > 1) slots.push_back(',');
      slots.append(digits, r.ptr);
    }
    slots.push_back(']');
    row[kFightSlots] = MatchValue::Text(slots);
    row[kFightEvents] = MatchValue::Int(f.events);
    row[kFightDamage] = MatchValue::Int(f.damage);
    row[kFightKills] = MatchValue::Int(f.kills);
    ctx.Row(kTeamfights, row);
  }
}

}  // namespace gem::deadlock
