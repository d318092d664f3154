#include "core/cs2/combat.h"

#include <cmath>

#include <algorithm>
#include <array>

#include "core/cs2/tables.h"
#include "core/match/body.h"

namespace gem::cs2 {
namespace {

using match::MatchContext;

MatchValue SlotCell(int32_t slot) { return slot >= 0 ? MatchValue::Int(slot) : MatchValue(); }

}  // namespace

const char* HitgroupName(int64_t hitgroup) {
  switch (hitgroup) {
    case 0: return "generic";
    case 1: return "head";
    case 2: return "chest";
    case 3: return "stomach";
    case 4: return "left_arm";
    case 5: return "right_arm";
    case 6: return "left_leg";
    case 7: return "right_leg";
    case 8: return "neck";
    case 10: return "gear";
    default: return nullptr;
  }
}

void Combat::OnGameEvent(MatchContext& ctx, MatchState& state, const GameEvent& e,
                         EventKeys& keys) {
  if (e.name == "player_hurt") {
    if (!pawn_damages_.stopped()) pawn_damages_.Stop();  // the events say
    Damage(ctx, state, e, keys);
  } else if (e.name == "weapon_fire") {
    Shot(ctx, state, e, keys);
  } else if (e.name == "player_blind") {
    Blind(ctx, state, e, keys);
  }
}

void Combat::Damage(MatchContext& ctx, MatchState& state, const GameEvent& e, EventKeys& keys) {
  const int32_t victim = state.Participant(ctx, e, "userid");
  if (victim < 0) {
    ++events_without_player_;
    return;
  }
  const int32_t attacker = state.Participant(ctx, e, "attacker");
  std::array<MatchValue, kDamageColumns> row{};
  row[kDmgTick] = MatchValue::Int(ctx.tick());
  row[kDmgTime] = state.Clock(ctx);
  row[kDmgRound] = state.Round(ctx);
  row[kDmgAttacker] = SlotCell(attacker);
  row[kDmgVictim] = MatchValue::Int(victim);
  if (attacker >= 0) row[kDmgAttackerTeam] = state.Team(ctx, attacker);
  row[kDmgVictimTeam] = state.Team(ctx, victim);
  row[kDmgWeapon] = keys.TextCell(e, "weapon");
  if (const std::optional<int64_t> g = keys.Int(e, "hitgroup")) {
    const char* name = HitgroupName(*g);
    if (name != nullptr) row[kDmgHitgroup] = MatchValue::Text(name); else ++unknown_hitgroups_;
  }
  const std::optional<int64_t> damage = keys.Int(e, "dmg_health");
  const std::optional<int64_t> health = keys.Int(e, "health");
  row[kDmgDamage] = damage ? MatchValue::Int(*damage) : MatchValue();
  row[kDmgArmor] = keys.IntCell(e, "dmg_armor");
  row[kDmgHealthAfter] = health ? MatchValue::Int(*health) : MatchValue();
  row[kDmgArmorAfter] = keys.IntCell(e, "armor");
  if (damage) {
    // The health before the hit caps what it took; a hit that left health
    // took all it says.
    const Entity* victim_pawn = state.Pawn(ctx, victim);
    const int32_t pawn_index = victim_pawn ? victim_pawn->index : -1;
    // Out of the recorder's view, its health was not sent: unknown.
    const int64_t before = match::InView(victim_pawn) ? HealthBefore(pawn_index) : -1;
    if (before >= 0) {
      row[kDmgReal] = MatchValue::Int(std::min(*damage, before));
    } else if (health && *health > 0) {
      row[kDmgReal] = MatchValue::Int(*damage);
    } else {
      ++damage_unknown_health_;
    }
    // A later hit of this frame starts from what this one left.
    if (health && pawn_index >= 0 && pawn_index < kMaxIndex) {
      PawnHealth& h = HealthOf(pawn_index);
      h.hit_frame = frames_;
      h.hit_health = *health;
    }
  }
  if (attacker >= 0) {
    state.Position(state.Pawn(ctx, attacker), &row[kDmgAttackerX], &row[kDmgAttackerY],
                   &row[kDmgAttackerZ]);
  }
  state.Position(state.Pawn(ctx, victim), &row[kDmgVictimX], &row[kDmgVictimY],
                 &row[kDmgVictimZ]);
  ctx.Row(kDamages, row);
}

void Combat::Shot(MatchContext& ctx, MatchState& state, const GameEvent& e, EventKeys& keys) {
  const int32_t slot = state.Participant(ctx, e, "userid");
  if (slot < 0) {
    ++events_without_player_;
    return;
  }
  std::array<MatchValue, kShotColumns> row{};
  row[kShotTick] = MatchValue::Int(ctx.tick());
  row[kShotTime] = state.Clock(ctx);
  row[kShotRound] = state.Round(ctx);
  row[kShotSlot] = MatchValue::Int(slot);
  row[kShotWeapon] = keys.TextCell(e, "weapon");
  if (row[kShotWeapon].kind != MatchValue::Kind::kText || row[kShotWeapon].s.empty()) {
    row[kShotWeapon] = MatchValue();
    ++shots_without_weapon_;
  }
  row[kShotSilenced] = keys.IntCell(e, "silenced");
  const Entity* pawn = state.Pawn(ctx, slot);
  state.Position(pawn, &row[kShotX], &row[kShotY], &row[kShotZ]);
  const Entity* seen = match::InView(pawn);
  match::ReadPitchYaw(eye_angles_, seen, &row[kShotPitch], &row[kShotYaw]);
  const std::optional<double> vx = match::ReadReal(velocity_x_, seen);
  const std::optional<double> vy = match::ReadReal(velocity_y_, seen);
  if (vx && vy) row[kShotSpeed] = MatchValue::Real(std::hypot(*vx, *vy));
  row[kShotBurst] = match::IntCell(match::ReadInt(shots_fired_, seen));
  ctx.Row(kShots, row);
  if (const std::optional<std::string_view> w = keys.Text(e, "weapon")) {
    pawn_damages_.OnShot(slot, *w);
  }
}

void Combat::Blind(MatchContext& ctx, MatchState& state, const GameEvent& e, EventKeys& keys) {
  saw_blind_event_ = true;
  const int32_t victim = state.Participant(ctx, e, "userid");
  if (victim < 0) {
    ++events_without_player_;
    return;
  }
  const int32_t thrower = state.Participant(ctx, e, "attacker");
  std::array<MatchValue, kFlashColumns> row{};
  row[kFlashTick] = MatchValue::Int(ctx.tick());
  row[kFlashTime] = state.Clock(ctx);
  row[kFlashRound] = state.Round(ctx);
  row[kFlashThrower] = SlotCell(thrower);
  row[kFlashVictim] = MatchValue::Int(victim);
  if (thrower >= 0) row[kFlashThrowerTeam] = state.Team(ctx, thrower);
  row[kFlashVictimTeam] = state.Team(ctx, victim);
  row[kFlashDuration] = keys.RealCell(e, "blind_duration");
  if (const std::optional<int64_t> id = keys.Int(e, "entityid")) {
    row[kFlashGrenade] = state.GrenadeAt(static_cast<int32_t>(*id));
  }
  ctx.Row(kFlashes, row);
}

Combat::PawnHealth& Combat::HealthOf(int32_t pawn_index) {
  const size_t i = static_cast<size_t>(pawn_index);
  if (i >= health_.size()) health_.resize(i + 1);
  return health_[i];
}

void Combat::OnPawnCreated(int32_t pawn_index, std::optional<int64_t> health,
                           std::optional<int64_t> armor) {
  if (pawn_index < 0 || pawn_index >= kMaxIndex) return;
  pawn_damages_.OnPawnCreated(pawn_index, health, armor);
  // A new pawn had no health before this frame.
  PawnHealth& h = HealthOf(pawn_index);
  h.frame = frames_;
  h.before = -1;
  h.now = health.value_or(-1);
}

void Combat::OnPawnHealth(int32_t pawn_index, const Value& value) {
  if (pawn_index < 0 || pawn_index >= kMaxIndex) return;
  PawnHealth& h = HealthOf(pawn_index);
  if (h.frame != frames_) {
    h.before = h.now;  // what the last frame ended with
    h.frame = frames_;
  }
  h.now = match::AsInt(value).value_or(-1);
  pawn_damages_.OnPawnHealth(pawn_index, value);
}

void Combat::OnPawnArmor(int32_t pawn_index, const Value& value) {
  pawn_damages_.OnPawnArmor(pawn_index, value);
}

void Combat::OnPawnFlash(int32_t pawn_index, const Value& value) {
  if (saw_blind_event_) return;  // the events say who is blinded
  const std::optional<double> d = match::AsReal(value);
  if (d && *d > 0) pending_flashes_.push_back({pawn_index, static_cast<float>(*d)});
}

int64_t Combat::HealthBefore(int32_t pawn_index) const {
  if (pawn_index < 0 || static_cast<size_t>(pawn_index) >= health_.size()) return -1;
  const PawnHealth& h = health_[static_cast<size_t>(pawn_index)];
  if (h.hit_frame == frames_) return h.hit_health;
  return h.frame == frames_ ? h.before : h.now;
}

void Combat::OnFrameEnd(MatchContext& ctx, MatchState& state) {
  // Flashes the pawns said, each thrown by this frame's flashbang if one
  // went off (the grenades have told theirs by now).
  for (const PendingFlash& f : pending_flashes_) {
    const Entity* pawn = ctx.Get(f.pawn_index);
    const int32_t slot = pawn ? state.SlotOfEntity(ctx, *pawn) : -1;
    if (slot < 0) continue;
    MatchValue grenade;
    int32_t thrower = -1;
    state.GrenadeNow(ctx, "flash", &grenade, &thrower);
    std::vector<MatchValue> row(kFlashColumns);
    row[kFlashTick] = MatchValue::Int(ctx.tick());
    row[kFlashTime] = state.Clock(ctx);
    row[kFlashRound] = state.Round(ctx);
    row[kFlashThrower] = SlotCell(thrower);
    row[kFlashVictim] = MatchValue::Int(slot);
    if (thrower >= 0) row[kFlashThrowerTeam] = state.Team(ctx, thrower);
    row[kFlashVictimTeam] = state.Team(ctx, slot);
    row[kFlashDuration] = MatchValue::Real(f.duration);
    row[kFlashGrenade] = grenade;
    pawn_flashes_.push_back(std::move(row));
  }
  pending_flashes_.clear();
  pawn_damages_.OnFrameEnd(ctx, state);
  ++frames_;
}

void Combat::FillKill(MatchContext& ctx, MatchState& state, const GameEvent& e,
                      EventKeys& keys, KillRow* k) {
  k->extra.assign(kKillColumns, MatchValue());
  std::vector<MatchValue>& x = k->extra;
  x[kKillRound] = state.Round(ctx);
  if (k->killer) x[kKillKillerTeam] = state.Team(ctx, *k->killer);
  x[kKillVictimTeam] = state.Team(ctx, k->victim);
  x[kKillPenetrated] = keys.IntCell(e, "penetrated");
  x[kKillThruSmoke] = keys.IntCell(e, "thrusmoke");
  x[kKillNoScope] = keys.IntCell(e, "noscope");
  x[kKillAttackerBlind] = keys.IntCell(e, "attackerblind");
  x[kKillAssistedFlash] = keys.IntCell(e, "assistedflash");
  x[kKillDistance] = keys.RealCell(e, "distance");
  const char* hitgroup = nullptr;
  if (const std::optional<int64_t> g = keys.Int(e, "hitgroup")) {
    hitgroup = HitgroupName(*g);
    if (hitgroup != nullptr) x[kKillHitgroup] = MatchValue::Text(hitgroup); else ++unknown_hitgroups_;
  }
  pawn_damages_.OnDeath(k->victim, k->killer, k->weapon, hitgroup);
  if (k->killer) {
    state.Position(state.Pawn(ctx, *k->killer), &x[kKillAttackerX], &x[kKillAttackerY],
                   &x[kKillAttackerZ]);
  }
}

void Combat::Finish(MatchContext& ctx) {
  for (const std::vector<MatchValue>& row : pawn_damages_.rows()) ctx.Row(kDamages, row);
  if (saw_blind_event_) return;
  for (const std::vector<MatchValue>& row : pawn_flashes_) ctx.Row(kFlashes, row);
}

std::vector<std::pair<std::string, uint64_t>> Combat::Counters() const {
  return {{"damages_unknown_health", damage_unknown_health_},
          {"unknown_hitgroups", unknown_hitgroups_},
          {"combat_events_without_player", events_without_player_},
          {"shots_without_weapon", shots_without_weapon_},
          {"flashes_from_pawns", saw_blind_event_ ? 0 : pawn_flashes_.size()},
          {"damages_from_pawns", pawn_damages_.rows().size()},
          {"damages_from_pawns_without_attacker", pawn_damages_.without_attacker()}};
}

}  // namespace gem::cs2
