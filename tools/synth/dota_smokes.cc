#include "tools/synth/dota_smokes.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "proto/dota_usermessages.pb.h"

namespace gem::synth {
namespace {

constexpr int32_t kModifierAdd = 2;     // DOTA_COMBATLOG_MODIFIER_ADD
constexpr int32_t kModifierRemove = 3;  // DOTA_COMBATLOG_MODIFIER_REMOVE
constexpr const char* kSmoke = "modifier_smoke_of_deceit";
// OpenDota's rule (odota/parser #91): a window without a removal closes 35
// s after the add; a kill counts up to 30 s after the window's end.
constexpr int64_t kMaxSeconds = 35;
constexpr int64_t kLingerSeconds = 30;

}  // namespace

double DotaSmokes::Interval() const {
  return world_->tick_interval() > 0 ? world_->tick_interval() : 1.0 / 30;
}

float DotaSmokes::Timestamp(uint32_t tick) const {
  return static_cast<float>(tick * Interval());
}

uint32_t DotaSmokes::Ticks(uint64_t seconds) const {
  return static_cast<uint32_t>(static_cast<double>(seconds) / Interval());
}

int64_t DotaSmokes::Seconds(uint32_t tick) const {
  return static_cast<int64_t>(std::floor(static_cast<double>(Timestamp(tick)) + 0.5));
}

void DotaSmokes::Start(uint32_t end_tick) {
  for (const PlayerStats::View& p : stats_->players()) {
    if (p.hero != nullptr) players_.push_back(p);
  }
  next_smoke_ = stats_->horn_tick() + Ticks(60);
  last_smoke_ = end_tick > Ticks(20) ? end_tick - Ticks(20) : 0;
}

void DotaSmokes::Entry(uint32_t tick, int32_t type, const SimEntity* target,
                       const SimEntity* user) {
  proto::CMsgDOTACombatLogEntry e;
  e.set_type(type);
  e.set_target_name(combat_->Name(stats_->HeroName(target)));
  e.set_target_source_name(e.target_name());
  e.set_attacker_name(combat_->Name(stats_->HeroName(user)));
  e.set_damage_source_name(e.attacker_name());
  e.set_inflictor_name(combat_->Name(kSmoke));
  e.set_is_target_hero(true);
  e.set_is_target_illusion(false);
  e.set_is_attacker_hero(true);
  e.set_timestamp(Timestamp(tick));
  combat_->Write(tick, e);
}

void DotaSmokes::Tick(uint32_t tick) {
  if (players_.empty()) return;
  for (Window& w : windows_) {
    if (w.end_tick || w.remove_at == 0 || w.remove_at > tick) continue;
    for (const PlayerStats::View& p : players_) {
      if (p.slot == w.slot) Entry(tick, kModifierRemove, p.hero, p.hero);
    }
    w.end_tick = tick;
  }
  for (auto it = repeats_.begin(); it != repeats_.end();) {
    if (it->first > tick) {
      ++it;
      continue;
    }
    for (const PlayerStats::View& p : players_) {
      if (p.slot == it->second) Entry(tick, kModifierAdd, p.hero, p.hero);
    }
    it = repeats_.erase(it);
  }
  if (!last_done_ && last_smoke_ != 0 && tick >= last_smoke_) {
    last_done_ = true;
    Smoke(tick, /*breaks=*/false);
    return;
  }
  if (tick < next_smoke_ || tick >= last_smoke_) return;
  Smoke(tick, /*breaks=*/true);
  next_smoke_ = tick + Ticks(60 + Below(61));
}

void DotaSmokes::Smoke(uint32_t tick, bool breaks) {
  const int team = Below(2) == 0 ? 2 : 3;
  auto smoked = [this](int slot) {
    for (const Window& w : windows_) {
      if (w.slot == slot && !w.end_tick) return true;
    }
    return false;
  };
  std::vector<PlayerStats::View> free;
  for (const PlayerStats::View& p : players_) {
    if (p.team == team && !smoked(p.slot)) free.push_back(p);
  }
  if (free.empty()) return;
  std::shuffle(free.begin(), free.end(), rng_);
  free.resize(1 + Below(free.size()));
  const SimEntity* user = free.front().hero;
  for (const PlayerStats::View& p : free) {
    Entry(tick, kModifierAdd, p.hero, user);
    const uint32_t remove_at = breaks ? tick + Ticks(3 + Below(38)) : 0;
    windows_.push_back({p.slot, team, tick, std::nullopt, remove_at});
  }
  // The combat log's repeats: a second ADD to the smoke's first hero a
  // second later (its window is open), a REMOVE from an enemy not smoked.
  if (breaks) repeats_.push_back({tick + Ticks(1), free.front().slot});
  for (const PlayerStats::View& p : players_) {
    if (p.team != team && !smoked(p.slot)) {
      Entry(tick, kModifierRemove, p.hero, p.hero);
      break;
    }
  }
  ++smokes_;
}

void DotaSmokes::Finish(FILE* out) const {
  if (out == nullptr) return;
  auto tick_json = [](const std::optional<uint32_t>& t) {
    return t ? std::to_string(*t) : std::string("null");
  };
  for (const Window& w : windows_) {
    std::fprintf(out,
                 "{\"kind\":\"smoke_window\",\"slot\":%d,\"team\":%d,\"start_tick\":%u,"
                 "\"end_tick\":%s}\n",
                 w.slot, w.team, w.start_tick, tick_json(w.end_tick).c_str());
  }
  for (const Kill& k : kills_) {
    const int64_t t = Seconds(k.tick);
    bool smoke = false;
    for (const Window& w : windows_) {
      if (w.slot != k.killer) continue;
      const int64_t start = Seconds(w.start_tick);
      const int64_t end = w.end_tick ? Seconds(*w.end_tick) : start + kMaxSeconds;
      smoke |= t >= start && t <= end + kLingerSeconds;
    }
    std::fprintf(out,
                 "{\"kind\":\"smoke_kill\",\"tick\":%u,\"killer\":%d,\"victim\":%d,"
                 "\"smoke\":%s}\n",
                 k.tick, k.killer, k.victim, smoke ? "true" : "false");
  }
}

}  // namespace gem::synth
