#include "core/cs2/combat.h"

#include <algorithm>
#include <array>

#include "core/cs2/tables.h"
#include "core/match/body.h"

namespace gem::cs2 {
namespace {

using match::MatchContext;

bool IsSlot(int32_t slot, int32_t slots) { return slot >= 0 && slot < slots; }

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
    const int64_t before = IsSlot(victim, kSlots) && health_frame_[victim] == frames_
                               ? health_[victim]
                               : -1;
    if (before >= 0) {
      row[kDmgReal] = MatchValue::Int(std::min(*damage, before));
    } else if (health && *health > 0) {
      row[kDmgReal] = MatchValue::Int(*damage);
    } else {
      ++damage_unknown_health_;
    }
  }
  if (health && IsSlot(victim, kSlots) && health_frame_[victim] == frames_) {
    health_[victim] = *health;
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
  row[kShotSilenced] = keys.IntCell(e, "silenced");
  const Entity* pawn = state.Pawn(ctx, slot);
  state.Position(pawn, &row[kShotX], &row[kShotY], &row[kShotZ]);
  match::ReadPitchYaw(eye_angles_, pawn, &row[kShotPitch], &row[kShotYaw]);
  ctx.Row(kShots, row);
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

void Combat::OnFrameEnd(MatchContext& ctx, MatchState& state,
                        std::span<const PlayerNow> players) {
  // A slot's health holds for the next frame only if read in this one.
  ++frames_;
  for (const PlayerNow& p : players) {
    const int32_t slot = p.slot;
    const Entity* pawn = p.pawn;
    if (pawn == nullptr || !IsSlot(slot, kSlots)) continue;
    health_[slot] = match::ReadInt(health_field_, pawn).value_or(-1);
    health_frame_[slot] = frames_;
    if (saw_blind_event_) continue;  // the events say who is blinded
    const std::optional<double> flash = match::ReadReal(flash_field_, pawn);
    const float now = flash ? static_cast<float>(*flash) : 0.0f;
    if (now != flash_[slot] && now > 0 && !saw_blind_event_) {
      // Set anew: a flash, thrown by this frame's flashbang if one went off.
      MatchValue grenade;
      int32_t thrower = -1;
      state.FlashbangNow(ctx, &grenade, &thrower);
      std::vector<MatchValue> row(kFlashColumns);
      row[kFlashTick] = MatchValue::Int(ctx.tick());
      row[kFlashTime] = state.Clock(ctx);
      row[kFlashRound] = state.Round(ctx);
      row[kFlashThrower] = SlotCell(thrower);
      row[kFlashVictim] = MatchValue::Int(slot);
      if (thrower >= 0) row[kFlashThrowerTeam] = state.Team(ctx, thrower);
      row[kFlashVictimTeam] = state.Team(ctx, slot);
      row[kFlashDuration] = MatchValue::Real(now);
      row[kFlashGrenade] = grenade;
      pawn_flashes_.push_back(std::move(row));
    }
    flash_[slot] = now;
  }
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
  if (const std::optional<int64_t> g = keys.Int(e, "hitgroup")) {
    const char* name = HitgroupName(*g);
    if (name != nullptr) x[kKillHitgroup] = MatchValue::Text(name); else ++unknown_hitgroups_;
  }
  if (k->killer) {
    state.Position(state.Pawn(ctx, *k->killer), &x[kKillAttackerX], &x[kKillAttackerY],
                   &x[kKillAttackerZ]);
  }
}

void Combat::Finish(MatchContext& ctx) {
  if (saw_blind_event_) return;
  for (const std::vector<MatchValue>& row : pawn_flashes_) ctx.Row(kFlashes, row);
}

std::vector<std::pair<std::string, uint64_t>> Combat::Counters() const {
  return {{"damages_unknown_health", damage_unknown_health_},
          {"unknown_hitgroups", unknown_hitgroups_},
          {"combat_events_without_player", events_without_player_},
          {"flashes_from_pawns", saw_blind_event_ ? 0 : pawn_flashes_.size()}};
}

}  // namespace gem::cs2
