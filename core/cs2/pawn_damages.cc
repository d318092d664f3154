#include "core/cs2/pawn_damages.h"

#include "core/cs2/tables.h"
#include "core/match/field_reader.h"

namespace gem::cs2 {

using match::MatchContext;

void PawnDamages::Stop() {
  *this = PawnDamages();
  stopped_ = true;
}

void PawnDamages::OnPawnCreated(int32_t pawn_index, std::optional<int64_t> health,
                                std::optional<int64_t> armor) {
  if (stopped_ || pawn_index < 0 || pawn_index >= kMaxIndex) return;
  if (static_cast<size_t>(pawn_index) >= pawns_.size()) pawns_.resize(pawn_index + 1);
  // A new pawn lost nothing: it had no health before.
  Pawn& p = pawns_[static_cast<size_t>(pawn_index)];
  p = Pawn();
  p.health = health.value_or(-1);
  p.armor = armor.value_or(-1);
}

void PawnDamages::Set(int32_t pawn_index, bool armor, const Value& value) {
  if (stopped_ || pawn_index < 0 || static_cast<size_t>(pawn_index) >= pawns_.size()) return;
  Pawn& p = pawns_[static_cast<size_t>(pawn_index)];
  if (p.frame != frames_) {
    // The first change this frame: what the frame before ended with.
    p.frame = frames_;
    p.health_before = p.health;
    p.armor_before = p.armor;
    changed_now_.push_back(pawn_index);
  }
  (armor ? p.armor : p.health) = match::AsInt(value).value_or(-1);
}

std::string_view PawnDamages::Keep(std::string_view text) {
  return *texts_.emplace(text).first;
}

void PawnDamages::OnShot(int32_t slot, std::string_view weapon) {
  if (stopped_) return;
  // weapon_fire names "weapon_ak47"; player_hurt and the kills "ak47".
  constexpr std::string_view kPrefix = "weapon_";
  if (weapon.substr(0, kPrefix.size()) == kPrefix) weapon.remove_prefix(kPrefix.size());
  shots_now_.emplace_back(slot, Keep(weapon));
}

void PawnDamages::OnDeath(int32_t victim, std::optional<int32_t> killer, std::string_view weapon,
                          const char* hitgroup) {
  if (stopped_) return;
  deaths_now_.push_back({victim, killer, Keep(weapon), hitgroup});
}

void PawnDamages::Attacker(MatchContext& ctx, MatchState& state, int32_t victim,
                           int32_t* attacker, std::string_view* weapon, const char** hitgroup) {
  *attacker = -1;
  *weapon = {};
  *hitgroup = nullptr;
  for (const Death& d : deaths_now_) {
    if (d.victim != victim) continue;
    *attacker = d.killer.value_or(-1);
    *weapon = d.weapon;
    *hitgroup = d.hitgroup;
    return;
  }
  // The enemies who fired this frame: one is the attacker, two or more
  // leave it unknown.
  const MatchValue team = state.Team(ctx, victim);
  int32_t shooter = -1;
  std::string_view shot_with;
  for (const auto& [slot, w] : shots_now_) {
    const MatchValue t = state.Team(ctx, slot);
    if (t.kind != MatchValue::Kind::kInt || team.kind != MatchValue::Kind::kInt ||
        t.i == team.i || slot == shooter) {
      continue;
    }
    if (shooter >= 0) return;  // another enemy fired too
    shooter = slot;
    shot_with = w;
  }
  if (shooter >= 0) {
    *attacker = shooter;
    *weapon = shot_with;
    return;
  }
  MatchValue grenade;
  int32_t thrower = -1;
  if (state.GrenadeNow(ctx, "he", &grenade, &thrower) == 1) {
    *attacker = thrower;
    *weapon = "hegrenade";
    return;
  }
  if (state.FiresNow(ctx, &thrower) == 1) {
    *attacker = thrower;
    *weapon = "inferno";
  }
}

void PawnDamages::OnFrameEnd(MatchContext& ctx, MatchState& state) {
  if (stopped_) return;
  for (const int32_t index : changed_now_) {
    const Pawn& p = pawns_[static_cast<size_t>(index)];
    const bool lost_health = p.health_before > 0 && p.health >= 0 && p.health < p.health_before;
    const bool lost_armor = p.health_before > 0 && p.armor_before >= 0 && p.armor >= 0 &&
                            p.armor < p.armor_before;
    if (!lost_health && !lost_armor) continue;
    const Entity* pawn = ctx.Get(index);
    const int32_t victim = pawn ? state.SlotOfEntity(ctx, *pawn) : -1;
    if (victim < 0) continue;
    int32_t attacker = -1;
    std::string_view weapon;
    const char* hitgroup = nullptr;
    Attacker(ctx, state, victim, &attacker, &weapon, &hitgroup);
    std::vector<MatchValue> row(kDamageColumns);
    row[kDmgTick] = MatchValue::Int(ctx.tick());
    row[kDmgTime] = state.Clock(ctx);
    row[kDmgRound] = state.Round(ctx);
    row[kDmgVictim] = MatchValue::Int(victim);
    row[kDmgVictimTeam] = state.Team(ctx, victim);
    if (attacker >= 0) {
      row[kDmgAttacker] = MatchValue::Int(attacker);
      row[kDmgAttackerTeam] = state.Team(ctx, attacker);
      state.Position(state.Pawn(ctx, attacker), &row[kDmgAttackerX], &row[kDmgAttackerY],
                     &row[kDmgAttackerZ]);
    } else {
      ++without_attacker_;
    }
    if (!weapon.empty()) row[kDmgWeapon] = MatchValue::Text(weapon);
    if (hitgroup != nullptr) row[kDmgHitgroup] = MatchValue::Text(hitgroup);
    const int64_t lost = lost_health ? p.health_before - p.health : 0;
    row[kDmgDamage] = MatchValue::Int(lost);
    row[kDmgReal] = MatchValue::Int(lost);
    row[kDmgArmor] = MatchValue::Int(lost_armor ? p.armor_before - p.armor : 0);
    row[kDmgHealthAfter] = MatchValue::Int(p.health);
    if (p.armor >= 0) row[kDmgArmorAfter] = MatchValue::Int(p.armor);
    state.Position(pawn, &row[kDmgVictimX], &row[kDmgVictimY], &row[kDmgVictimZ]);
    rows_.push_back(std::move(row));
  }
  changed_now_.clear();
  shots_now_.clear();
  deaths_now_.clear();
  ++frames_;
}

}  // namespace gem::cs2
