// Cs2Match's fighting: shots, hits, kills (see cs2_match.h).
#include <algorithm>
#include <cmath>

#include "tools/synth/cs2_match.h"

namespace gem::synth {
namespace {

constexpr int64_t kNoHandle = 0xFFFFFF;
const char* const kHitgroups[] = {"generic", "head", "chest", "stomach", "left_arm",
                                  "right_arm", "left_leg", "right_leg"};

}  // namespace

void Cs2Match::Hurt(uint32_t tick, Player* attacker, Player* victim, int damage, int hitgroup,
                    const std::string& weapon) {
  if (!victim->alive) return;
  // A bullet hits as the shot goes: the shooter's weapon_fire, this tick.
  // (A bullet fired this tick already is the one that hits: a gun fires
  // no two in a tick.)
  if (attacker != nullptr && weapon != "hegrenade" && weapon != "inferno" &&
      attacker->last_shot != tick) {
    AimAt(attacker, *victim);
    Shot(tick, attacker, "weapon_" + weapon);
  }
  const int before = victim->health;
  const int armor_damage = victim->armor > 0 ? std::min(victim->armor, damage / 5) : 0;
  victim->health = std::max(0, victim->health - damage);
  victim->armor -= armor_damage;
  world_->Set(victim->pawn, "m_iHealth", world_->Number(*victim->pawn, "m_iHealth", victim->health));
  world_->Set(victim->pawn, "m_ArmorValue",
              world_->Number(*victim->pawn, "m_ArmorValue", victim->armor));
  std::map<std::string, Value> keys = Who("userid", victim);
  for (auto& [k, v] : Who("attacker", attacker)) keys[k] = v;
  keys["health"] = Value::Int(victim->health);
  keys["armor"] = Value::Int(victim->armor);
  keys["weapon"] = Value::String(weapon);
  keys["dmg_health"] = Value::Int(damage);
  keys["dmg_armor"] = Value::Int(armor_damage);
  keys["hitgroup"] = Value::Int(hitgroup);
  const bool flawed = options_.flaws && round_ == 2 && !flaw_hurt_done_;
  if (flawed) {
    // The flaw: a number key sent as text. Its row keeps NULL there.
    keys["health"] = Value::String("lots");
    flaw_hurt_done_ = true;
  }
  if (options_.hurt_events) Event("player_hurt", keys);
  ++counters_.damages;
  double ax = 0, ay = 0, az = 0, vx, vy, vz;
  if (attacker != nullptr) WorldPos(*attacker->pawn, &ax, &ay, &az);
  WorldPos(*victim->pawn, &vx, &vy, &vz);
  const std::string a = attacker ? std::to_string(attacker->slot) : "null";
  Truth("{\"kind\":\"damage\",\"tick\":" + std::to_string(tick) + ",\"round\":" +
        std::to_string(round_) + ",\"attacker\":" + a + ",\"victim\":" +
        std::to_string(victim->slot) + ",\"attacker_team\":" +
        (attacker ? std::to_string(attacker->team) : "null") + ",\"victim_team\":" +
        std::to_string(victim->team) + ",\"weapon\":\"" + weapon + "\",\"hitgroup\":\"" +
        kHitgroups[hitgroup] + "\",\"damage\":" + std::to_string(damage) +
        ",\"damage_armor\":" + std::to_string(armor_damage) + ",\"damage_real\":" +
        std::to_string(std::min(damage, before)) + ",\"health_after\":" +
        (flawed ? "null" : std::to_string(victim->health)) + ",\"armor_after\":" +
        std::to_string(victim->armor) + ",\"attacker_x\":" + (attacker ? Num(ax) : "null") +
        ",\"attacker_y\":" + (attacker ? Num(ay) : "null") + ",\"attacker_z\":" +
        (attacker ? Num(az) : "null") + ",\"victim_x\":" + Num(vx) + ",\"victim_y\":" +
        Num(vy) + ",\"victim_z\":" + Num(vz) + "}");
  if (attacker != nullptr && attacker != victim) victim->hurt_by.push_back(attacker->slot);
  if (attacker != nullptr && attacker->slot >= 0 && attacker->slot < 64) {
    if (victim->hit_tick != tick) victim->hit_by = 0;
    victim->hit_by |= uint64_t{1} << attacker->slot;
    victim->hit_tick = tick;
  }
  if (victim->health > 0) return;
  // A death: the pawn drops what it held (m_hActiveWeapon names none).
  victim->alive = false;
  const std::string victim_weapon = weapon_class_ >= 0 ? victim->weapon : "";
  Hold(victim, 0);
  const std::string utility = UtilityTruth(*victim);
  DropUtility(victim);
  if (victim->slot == carrier_ && bomb_ == BombState::kCarried && c4_ != nullptr) {
    // The carrier drops the bomb where they fall; no one takes it up.
    std::map<std::string, Value> drop = Who("userid", victim);
    drop["entindex"] = Value::Int(c4_->index);
    world_->Set(c4_, "m_hOwnerEntity", world_->Number(*c4_, "m_hOwnerEntity", kNoHandle));
    Event("bomb_dropped", drop);
    BombRow(tick, "drop", victim, "", victim->pawn);
    bomb_ = BombState::kDropped;
  }
  world_->Set(victim->pawn, "m_lifeState", world_->Number(*victim->pawn, "m_lifeState", 2));
  auto stat = [&](Player* p, const char* name, int v) {
    const std::string n = std::string("m_pActionTrackingServices.") + name;
    world_->Set(p->controller, n, world_->Number(*p->controller, n, v));
  };
  stat(victim, "m_iDeaths", ++victim->deaths);
  Player* assister = nullptr;
  for (auto it = victim->hurt_by.rbegin(); it != victim->hurt_by.rend(); ++it) {
    Player& q = players_[static_cast<size_t>(Index(*it))];
    if (attacker != nullptr && q.slot != attacker->slot && q.team == attacker->team) {
      assister = &q;
      break;
    }
  }
  // No damage assist: a flash assist, by a teammate of the killer who
  // blinded the victim in the last 3 s.
  bool flash_assist = false;
  if (assister == nullptr && attacker != nullptr && victim->flashed_by >= 0 &&
      victim->flashed_by != attacker->slot && tick - victim->flashed_at <= 3 * 64) {
    Player& f = players_[static_cast<size_t>(Index(victim->flashed_by))];
    if (f.slot == victim->flashed_by && f.team == attacker->team) {
      assister = &f;
      flash_assist = true;
    }
  }
  const bool enemy = attacker != nullptr && attacker->team != victim->team;
  if (enemy) {
    stat(attacker, "m_iKills", ++attacker->kills);
    attacker->kill_reward += 300;
    stat(attacker, "m_iKillReward", attacker->kill_reward);
    attacker->money += 300;
    Money(attacker);
  }
  if (assister != nullptr) stat(assister, "m_iAssists", ++assister->assists);
  const int penetrated = static_cast<int>(Below(2));
  const bool smoke = Below(5) == 0, noscope = Below(7) == 0, blind = attacker && attacker->flash > 0;
  const double dist_units = attacker ? std::hypot(ax - vx, ay - vy, az - vz) : 0;
  const float distance = static_cast<float>(dist_units * 0.0254);
  std::map<std::string, Value> death = Who("userid", victim);
  for (auto& [k, v] : Who("attacker", attacker)) death[k] = v;
  for (auto& [k, v] : Who("assister", assister)) death[k] = v;
  death["assistedflash"] = Value::Bool(flash_assist);
  death["weapon"] = Value::String(weapon);
  death["headshot"] = Value::Bool(hitgroup == 1);
  death["penetrated"] = Value::Int(penetrated);
  death["thrusmoke"] = Value::Bool(smoke);
  death["noscope"] = Value::Bool(noscope);
  death["attackerblind"] = Value::Bool(blind);
  death["distance"] = Value::Float(distance);
  death["dmg_health"] = Value::Int(damage);
  death["dmg_armor"] = Value::Int(armor_damage);
  death["hitgroup"] = Value::Int(hitgroup);
  Event("player_death", death);
  ++counters_.kills;
  Truth("{\"kind\":\"kill\",\"tick\":" + std::to_string(tick) + ",\"round\":" +
        std::to_string(round_) + ",\"victim\":" + std::to_string(victim->slot) +
        ",\"killer\":" + a + ",\"assisters\":\"[" +
        (assister ? std::to_string(assister->slot) : "") + "]\",\"assistedflash\":" +
        std::to_string(flash_assist) + ",\"weapon\":\"" + weapon +
        "\",\"headshot\":" + std::to_string(hitgroup == 1) + ",\"penetrated\":" +
        std::to_string(penetrated) + ",\"thrusmoke\":" + std::to_string(smoke) +
        ",\"noscope\":" + std::to_string(noscope) + ",\"attackerblind\":" +
        std::to_string(blind) + ",\"distance\":" + Num(distance) + ",\"hitgroup\":\"" +
        kHitgroups[hitgroup] + "\",\"killer_team\":" +
        (attacker ? std::to_string(attacker->team) : "null") + ",\"victim_team\":" +
        std::to_string(victim->team) + ",\"x\":" + Num(vx) + ",\"y\":" + Num(vy) +
        ",\"z\":" + Num(vz) + ",\"attacker_x\":" + (attacker ? Num(ax) : "null") +
        ",\"attacker_y\":" + (attacker ? Num(ay) : "null") + ",\"attacker_z\":" +
        (attacker ? Num(az) : "null") + ",\"victim_weapon\":" +
        (victim_weapon.empty() ? "null" : "\"" + victim_weapon + "\"") + "," + utility + "}");
  OnDeath(tick, attacker, *victim, weapon, hitgroup == 1);
}

int Cs2Match::Index(int32_t slot) const {
  for (size_t i = 0; i < players_.size(); ++i) {
    if (players_[i].slot == slot) return static_cast<int>(i);
  }
  return 0;
}

bool Cs2Match::Protected(const Player& p) const {
  // The carrier while the bomb is on them, the defuser while defusing.
  // (A carrier bound for a site makes it there; one who is not can fall
  // and drop the bomb.)
  return (p.slot == carrier_ && bomb_ == BombState::kPlanting) ||
         (p.slot == carrier_ && bomb_ == BombState::kCarried && bomb_at_ != UINT32_MAX) ||
         (p.slot == defuser_ && bomb_ == BombState::kDefusing);
}

void Cs2Match::Shot(uint32_t tick, Player* p, const std::string& weapon) {
  MaybeCounterStrafe(p);
  p->shots_fired = p->shots_fired > 0 && tick - p->last_shot <= 8 ? p->shots_fired + 1 : 1;
  p->last_shot = tick;
  world_->Set(p->pawn, "m_iShotsFired", world_->Number(*p->pawn, "m_iShotsFired", p->shots_fired));
  std::map<std::string, Value> keys = Who("userid", p);
  if (!weapon.empty()) keys["weapon"] = Value::String(weapon);  // the flaw: none
  keys["silenced"] = Value::Bool(p->team == 3);
  Event("weapon_fire", keys);
  ++counters_.shots;
  double x, y, z;
  WorldPos(*p->pawn, &x, &y, &z);
  const Value a = world_->Get(*p->pawn, "m_angEyeAngles");
  const Value vx = world_->Get(*p->pawn, "m_vecVelocity.m_vecX");
  const Value vy = world_->Get(*p->pawn, "m_vecVelocity.m_vecY");
  const double speed = std::hypot(vx.kind == ValueKind::kFloat ? vx.f : 0.0,
                                  vy.kind == ValueKind::kFloat ? vy.f : 0.0);
  Truth("{\"kind\":\"shot\",\"tick\":" + std::to_string(tick) + ",\"round\":" +
        std::to_string(round_) + ",\"slot\":" + std::to_string(p->slot) + ",\"weapon\":" +
        (weapon.empty() ? "null" : "\"" + weapon + "\"") + ",\"silenced\":" +
        std::to_string(p->team == 3) + ",\"x\":" + Num(x) + ",\"y\":" + Num(y) + ",\"z\":" +
        Num(z) + ",\"pitch\":" + Num(a.v[0]) + ",\"yaw\":" + Num(a.v[1]) + ",\"speed\":" +
        Num(speed) + ",\"burst_shot\":" + std::to_string(p->shots_fired) + "}");
}

void Cs2Match::Fight(uint32_t tick) {
  Bursts(tick);
  for (Player& p : players_) {
    if (!p.alive) continue;
    if (Uniform() < 0.006 && p.last_shot != tick) {  // a burst in 2.6 s, of 1 to 6 bullets
      const bool flawed = options_.flaws && round_ == 2 && !flaw_shot_done_;
      flaw_shot_done_ |= flawed;
      Shot(tick, &p, flawed ? "" : "weapon_" + p.weapon);  // the flaw: no weapon
      p.burst_left = static_cast<int>(Below(6));
      p.next_bullet = tick + 6;
    }
    if (Uniform() < 0.0015) {  // a hit in 10 s, on an enemy spotted when there is one
      std::vector<Player*> spotted;
      for (Player& q : players_) {
        if (SeenNow(p, q)) spotted.push_back(&q);
      }
      Player* victim = spotted.empty() ? RandomAlive(5 - p.team) : spotted[Below(spotted.size())];
      if (victim == nullptr || Protected(*victim) || NoKills()) continue;
      const int hitgroup = 1 + static_cast<int>(Below(7));
      const int damage = hitgroup == 1 ? 60 + static_cast<int>(Below(60))
                                       : 15 + static_cast<int>(Below(30));
      Hurt(tick, &p, victim, damage, hitgroup, p.weapon);
      // A crossfire now and then: a teammate who has the victim spotted too
      // hits them in the same tick.
      if (victim->alive && Uniform() < 0.15) {
        for (Player& q : players_) {
          if (&q != &p && q.last_shot != tick && SeenNow(q, *victim)) {
            Hurt(tick, &q, victim, 15 + static_cast<int>(Below(30)), 2, q.weapon);
            break;
          }
        }
      }
    }
  }
}

}  // namespace gem::synth
