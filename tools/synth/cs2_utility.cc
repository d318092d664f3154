// Cs2Match's grenades and bomb (see cs2_match.h).
#include <algorithm>
#include <cmath>

#include "tools/synth/cs2_match.h"
#include "tools/synth/json_truth.h"

namespace gem::synth {
namespace {

constexpr uint32_t kFlight = 48;      // ticks a grenade flies
constexpr uint32_t kSmoke = 320;      // a smoke's 5 s
constexpr uint32_t kFire = 256;       // a fire's 4 s
constexpr uint32_t kDecoy = 320;
constexpr uint32_t kPlant = 192;      // 3 s to plant
constexpr uint32_t kDefuse = 320;     // 5 s to defuse
constexpr uint32_t kFuse = 640;       // 10 s to explode
constexpr int kSiteIndex = 300;       // the bomb targets' entity indexes, A and B
constexpr int64_t kNoHandle = 0xFFFFFF;

const char* ClassOf(const std::string& kind) {
  if (kind == "smoke") return "CSmokeGrenadeProjectile";
  if (kind == "flash") return "CFlashbangProjectile";
  if (kind == "he") return "CHEGrenadeProjectile";
  if (kind == "decoy") return "CDecoyProjectile";
  return "CMolotovProjectile";
}

}  // namespace

void Cs2Match::Throw(uint32_t tick, Player* p) {
  static const char* const kKinds[] = {"smoke", "flash", "he", "molotov", "incendiary", "decoy"};
  Grenade g;
  g.kind = kKinds[Below(std::size(kKinds))];
  g.e = world_->Create(projectile_class_[ClassOf(g.kind)]);
  if (g.e == nullptr) return;
  g.id = static_cast<int64_t>(next_grenade_++);
  g.thrower = p->slot;
  g.throw_tick = tick;
  g.round = round_;
  g.sx = p->x;
  g.sy = p->y;
  g.sz = p->z + 64;
  const double angle = Uniform() * 2 * M_PI, reach = 300 + Uniform() * 400;
  g.ex = p->x + std::cos(angle) * reach;
  g.ey = p->y + std::sin(angle) * reach;
  if (g.kind == "flash") {
    // A flash goes at the nearest enemy (within its reach).
    const Player* near = nullptr;
    for (const Player& q : players_) {
      if (q.alive && q.team != p->team &&
          (near == nullptr ||
           std::hypot(q.x - p->x, q.y - p->y) < std::hypot(near->x - p->x, near->y - p->y))) {
        near = &q;
      }
    }
    if (near != nullptr && std::hypot(near->x - p->x, near->y - p->y) <= 1500) {
      g.ex = near->x;
      g.ey = near->y;
    }
  }
  UseGrenade(p, g.kind);
  g.detonate_tick = tick + kFlight;
  int64_t thrower = p->pawn->handle();
  if (options_.flaws && round_ == 2 && !flaw_grenade_done_) {
    // The flaw: a thrower handle that names no entity.
    thrower = kNoHandle;
    g.thrower = -1;
    flaw_grenade_done_ = true;
  }
  world_->Set(g.e, "m_hThrower", world_->Number(*g.e, "m_hThrower", static_cast<double>(thrower)));
  world_->Set(g.e, "m_iTeamNum", world_->Number(*g.e, "m_iTeamNum", p->team));
  if (g.kind == "molotov" || g.kind == "incendiary") {
    world_->Set(g.e, "m_bIsIncGrenade", Value::Bool(g.kind == "incendiary"));
  }
  Place(g.e, g.sx, g.sy, g.sz);
  ++counters_.grenades;
  grenades_.push_back(g);
}

void Cs2Match::Grenades(uint32_t tick) {
  for (Grenade& g : grenades_) {
    if (g.e == nullptr && g.fire == nullptr) continue;
    const bool flying = g.e != nullptr && tick > g.throw_tick && tick < g.detonate_tick;
    const bool fire = g.kind == "molotov" || g.kind == "incendiary";
    if (flying) {
      const double u = static_cast<double>(tick - g.throw_tick) / kFlight;
      Place(g.e, g.sx + (g.ex - g.sx) * u, g.sy + (g.ey - g.sy) * u,
            g.sz * (1 - u) + 4 * 120 * u * (1 - u));
    }
    if (g.e != nullptr && !g.detonated) {
      // The path: where a reader sees it, at every packet it moved until
      // it went off.
      double x, y, z;
      WorldPos(*g.e, &x, &y, &z);
      const float fx = static_cast<float>(x), fy = static_cast<float>(y),
                  fz = static_cast<float>(z);
      if (!g.has_point || fx != g.lx || fy != g.ly || fz != g.lz) {
        g.has_point = true;
        g.lx = fx;
        g.ly = fy;
        g.lz = fz;
        Truth("{\"kind\":\"path\",\"id\":" + std::to_string(g.id) + ",\"tick\":" +
              std::to_string(tick) + ",\"x\":" + Num(x) + ",\"y\":" + Num(y) + ",\"z\":" +
              Num(z) + "}");
      }
    }
    Player* thrower = nullptr;
    for (Player& p : players_) {
      if (p.slot == g.thrower) thrower = &p;
    }
    if (tick == g.detonate_tick && !g.detonated) {
      g.detonated = true;
      std::map<std::string, Value> keys = Who("userid", thrower);
      keys["entityid"] = Value::Int(g.e->index);
      if (fire) {
        // A molotov bursts as its projectile goes, where it last was; its
        // fire starts there.
        world_->Delete(g.e);
        g.e = nullptr;
        g.fire = world_->Create(inferno_class_);
        if (g.fire != nullptr) {
          Place(g.fire, g.lx, g.ly, g.lz);
          const int64_t owner = thrower ? thrower->pawn->handle() : kNoHandle;
          world_->Set(g.fire, "m_hOwnerEntity",
                      world_->Number(*g.fire, "m_hOwnerEntity", static_cast<double>(owner)));
          Event("inferno_startburn", {{"entityid", Value::Int(g.fire->index)},
                                      {"x", Value::Float(g.lx)}, {"y", Value::Float(g.ly)},
                                      {"z", Value::Float(g.lz)}});
        }
        g.x = g.lx;
        g.y = g.ly;
        g.z = g.lz;
        g.end_tick = tick + kFire;
        continue;
      }
      // Where it went off, as its fields say (read back: what a reader reads).
      g.x = g.lx;
      g.y = g.ly;
      g.z = g.lz;
      const float at[3] = {g.lx, g.ly, g.lz};
      if (g.kind == "smoke") {
        world_->Set(g.e, "m_bDidSmokeEffect", Value::Bool(true));
        world_->Set(g.e, "m_vSmokeDetonationPos", Value::Vector(at, 3));
        const Value v = world_->Get(*g.e, "m_vSmokeDetonationPos");
        g.x = v.v[0];
        g.y = v.v[1];
        g.z = v.v[2];
        g.end_tick = tick + kSmoke;
      } else if (g.kind == "flash" || g.kind == "he") {
        world_->Set(g.e, "m_nExplodeEffectTickBegin",
                    world_->Number(*g.e, "m_nExplodeEffectTickBegin", tick));
        world_->Set(g.e, "m_vecExplodeEffectOrigin", Value::Vector(at, 3));
        const Value v = world_->Get(*g.e, "m_vecExplodeEffectOrigin");
        g.x = v.v[0];
        g.y = v.v[1];
        g.z = v.v[2];
        g.end_tick = tick;
      } else {
        g.end_tick = tick + kDecoy;
      }
      keys["x"] = Value::Float(static_cast<float>(g.x));
      keys["y"] = Value::Float(static_cast<float>(g.y));
      keys["z"] = Value::Float(static_cast<float>(g.z));
      const char* event = g.kind == "smoke" ? "smokegrenade_detonate"
                          : g.kind == "flash" ? "flashbang_detonate"
                          : g.kind == "he"    ? "hegrenade_detonate"
                                              : "decoy_started";
      Event(event, keys);
      if (g.kind == "flash") {
        for (Player& v : players_) {
          if (!v.alive || std::hypot(v.x - g.x, v.y - g.y) > 900) continue;
          float d = static_cast<float>(std::round((0.5 + Uniform() * 3) * 1000) / 1000);
          if (d == v.flash) d += 0.25f;
          v.flash = d;
          v.flashed_by = g.thrower;
          v.flashed_at = tick;
          world_->Set(v.pawn, "m_flFlashDuration", Value::Float(d));
          const float read = world_->Get(*v.pawn, "m_flFlashDuration").f;
          if (round_events_) {
            std::map<std::string, Value> blind = Who("userid", &v);
            for (auto& [k, x] : Who("attacker", thrower)) blind[k] = x;
            blind["entityid"] = Value::Int(g.e->index);
            blind["blind_duration"] = Value::Float(read);
            Event("player_blind", blind);
          }
          ++counters_.flashes;
          Truth("{\"kind\":\"flash\",\"tick\":" + std::to_string(tick) + ",\"round\":" +
                std::to_string(round_) + ",\"thrower\":" + Opt(g.thrower, g.thrower >= 0) +
                ",\"victim\":" + std::to_string(v.slot) + ",\"thrower_team\":" +
                (thrower ? std::to_string(thrower->team) : "null") + ",\"victim_team\":" +
                std::to_string(v.team) + ",\"duration\":" + Num(read) + ",\"grenade\":" +
                std::to_string(g.id) + "}");
        }
        // Now and then a teammate of the thrower swings on an enemy it
        // blinded: a flash assist when no teammate hurt them before.
        if (thrower != nullptr && !NoKills() && Uniform() < 0.5) {
          Player* mate = nullptr;
          Player* prey = nullptr;
          for (Player& q : players_) {
            if (mate == nullptr && q.alive && q.team == thrower->team && q.slot != thrower->slot) {
              mate = &q;
            }
            // (One no teammate of the thrower hurt yet: the flash is the assist.)
            bool hurt = false;
            for (int32_t by : q.hurt_by) hurt |= players_[static_cast<size_t>(Index(by))].team ==
                                                 thrower->team;
            if (prey == nullptr && q.alive && q.team != thrower->team && q.flashed_at == tick &&
                q.flashed_by == thrower->slot && !Protected(q) && !hurt) {
              prey = &q;
            }
          }
          if (mate != nullptr && prey != nullptr) {
            Hurt(tick, mate, prey, 100, 1, mate->weapon);
          }
        }
      } else if (g.kind == "he" && !NoKills()) {
        for (Player& v : players_) {
          if (!v.alive || Protected(v) || std::hypot(v.x - g.x, v.y - g.y) > 350) continue;
          Hurt(tick, thrower, &v, 20 + static_cast<int>(Below(40)), 0, "hegrenade");
        }
      }
      continue;
    }
    if (g.fire != nullptr && tick == g.detonate_tick + 64 && !NoKills()) {
      for (Player& v : players_) {
        if (!v.alive || Protected(v) || std::hypot(v.x - g.x, v.y - g.y) > 250) continue;
        Hurt(tick, thrower, &v, 8, 0, "inferno");
      }
    }
    if (g.e != nullptr && (g.kind == "flash" || g.kind == "he") && tick == g.detonate_tick + 2) {
      world_->Delete(g.e);
      g.e = nullptr;
      continue;
    }
    if (g.detonated && tick == g.end_tick) {
      if (g.fire != nullptr) {
        Event("inferno_expire", {{"entityid", Value::Int(g.fire->index)},
                                 {"x", Value::Float(g.lx)}, {"y", Value::Float(g.ly)},
                                 {"z", Value::Float(g.lz)}});
        world_->Delete(g.fire);
        g.fire = nullptr;
      } else if (g.e != nullptr) {
        std::map<std::string, Value> keys = Who("userid", thrower);
        keys["entityid"] = Value::Int(g.e->index);
        Event(g.kind == "smoke" ? "smokegrenade_expired" : "decoy_detonate", keys);
        world_->Delete(g.e);
        g.e = nullptr;
      }
    }
  }
}

void Cs2Match::FinishGrenades() {
  for (const Grenade& g : grenades_) {
    // A grenade still out at the end has not ended.
    const bool over = g.e == nullptr && g.fire == nullptr;
    Truth("{\"kind\":\"grenade\",\"id\":" + std::to_string(g.id) + ",\"tick\":" +
          std::to_string(g.throw_tick) + ",\"round\":" + Num(g.round) + ",\"kind_\":\"" +
          g.kind + "\",\"thrower\":" + Opt(g.thrower, g.thrower >= 0) + ",\"throw_tick\":" +
          std::to_string(g.throw_tick) + ",\"detonate_tick\":" +
          Opt(g.detonate_tick, g.detonated) + ",\"end_tick\":" + Opt(g.end_tick, over) +
          ",\"x\":" + (g.detonated ? Num(g.x) : "null") + ",\"y\":" +
          (g.detonated ? Num(g.y) : "null") + ",\"z\":" + (g.detonated ? Num(g.z) : "null") +
          "}");
  }
}

void Cs2Match::BombRow(uint32_t tick, const char* kind, const Player* p,
                       const std::string& site, const SimEntity* at) {
  double x = 0, y = 0, z = 0;
  if (at != nullptr) WorldPos(*at, &x, &y, &z);
  ++counters_.bomb_events;
  Truth("{\"kind\":\"bomb\",\"tick\":" + std::to_string(tick) + ",\"round\":" +
        std::to_string(round_) + ",\"kind_\":\"" + kind + "\",\"slot\":" +
        (p ? std::to_string(p->slot) : "null") + ",\"site\":" +
        (site.empty() ? "null" : "\"" + site + "\"") + ",\"x\":" + Num(x) + ",\"y\":" + Num(y) +
        ",\"z\":" + Num(z) + "}");
}

void Cs2Match::Bomb(uint32_t tick) {
  Player* carrier = nullptr;
  Player* defuser = nullptr;
  for (Player& p : players_) {
    if (p.slot == carrier_) carrier = &p;
    if (p.slot == defuser_) defuser = &p;
  }
  const std::string letter = site_ == 0 ? "A" : "B";
  auto site_keys = [&](const Player* p) {
    std::map<std::string, Value> keys = Who("userid", p);
    keys["site"] = Value::Int(kSiteIndex + site_);
    return keys;
  };
  if (bomb_ == BombState::kCarried && carrier != nullptr && tick >= bomb_at_) {
    world_->Set(carrier->pawn, "m_nWhichBombZone",
                world_->Number(*carrier->pawn, "m_nWhichBombZone", site_ + 1));
    world_->Set(carrier->pawn, "m_szLastPlaceName",
                Value::String(site_ == 0 ? "BombsiteA" : "BombsiteB"));
    world_->Set(c4_, "m_bStartedArming", Value::Bool(true));
    Event("bomb_beginplant", site_keys(carrier));
    BombRow(tick, "plant_begin", carrier, letter, carrier->pawn);
    bomb_ = BombState::kPlanting;
    bomb_at_ = tick + kPlant;
  } else if (bomb_ == BombState::kPlanting && tick >= bomb_at_) {
    world_->Delete(c4_);
    c4_ = nullptr;
    planted_ = world_->Create(planted_class_);
    if (planted_ == nullptr) {
      bomb_ = BombState::kDone;
      return;
    }
    Place(planted_, carrier->x, carrier->y, carrier->z);
    world_->Set(planted_, "m_nBombSite", world_->Number(*planted_, "m_nBombSite", site_));
    world_->Set(planted_, "m_bBombTicking", Value::Bool(true));
    world_->Set(rules_, "m_pGameRules.m_bBombPlanted", Value::Bool(true));
    Event("bomb_planted", site_keys(carrier));
    BombRow(tick, "plant", carrier, letter, planted_);
    plant_tick_ = tick;
    round_site_ = letter;
    bomb_ = BombState::kPlanted;
    bomb_at_ = tick + kFuse;
    // A CT goes for the defuse in half the rounds.
    Player* ct = Uniform() < 0.5 ? RandomAlive(3) : nullptr;
    defuser_ = ct ? ct->slot : -1;
    defuse_at_ = tick + 200;
  } else if (bomb_ == BombState::kPlanted && defuser != nullptr && defuser->alive &&
             tick >= defuse_at_) {
    std::map<std::string, Value> keys = Who("userid", defuser);
    keys["haskit"] = Value::Bool(false);
    world_->Set(planted_, "m_bBeingDefused", Value::Bool(true));
    world_->Set(planted_, "m_hBombDefuser",
                world_->Number(*planted_, "m_hBombDefuser", defuser->pawn->handle()));
    Event("bomb_begindefuse", keys);
    BombRow(tick, "defuse_begin", defuser, letter, planted_);
    bomb_ = BombState::kDefusing;
    defuse_at_ = tick + kDefuse;
  } else if (bomb_ == BombState::kDefusing && tick >= defuse_at_) {
    world_->Set(planted_, "m_bBombDefused", Value::Bool(true));
    world_->Set(planted_, "m_bBombTicking", Value::Bool(false));
    Event("bomb_defused", site_keys(defuser));
    defused_ = true;
    BombRow(tick, "defuse", defuser, letter, planted_);
    bomb_ = BombState::kDone;
    EndRound(tick, 3, 7);
  } else if ((bomb_ == BombState::kPlanted || bomb_ == BombState::kDefusing) &&
             tick >= bomb_at_) {
    world_->Set(planted_, "m_bHasExploded", Value::Bool(true));
    world_->Set(planted_, "m_bBombTicking", Value::Bool(false));
    Event("bomb_exploded", site_keys(carrier));
    BombRow(tick, "explode", carrier, letter, planted_);
    bomb_ = BombState::kDone;
    EndRound(tick, 2, 1);
  }
}

namespace {

// Player::ammo's positions: m_iAmmo 13 to 17.
enum Ammo { kAmmoHe, kAmmoFlash, kAmmoSmoke, kAmmoFire, kAmmoDecoy };
constexpr int kMolotovItem = 46, kIncendiaryItem = 48;

}  // namespace

void Cs2Match::BuyUtility(Player* p, int spend) {
  if (spend < 1000) return;
  auto below = [&](uint64_t n) { return static_cast<int>(utility_rng_() % n); };
  // Survivors keep theirs; a buy tops them up (2 flashbangs, 1 of each other).
  p->ammo[kAmmoFlash] = std::max(p->ammo[kAmmoFlash], below(3));
  p->ammo[kAmmoHe] = std::max(p->ammo[kAmmoHe], below(2));
  p->ammo[kAmmoSmoke] = std::max(p->ammo[kAmmoSmoke], below(2));
  p->ammo[kAmmoDecoy] = std::max(p->ammo[kAmmoDecoy], below(4) == 0 ? 1 : 0);
  if (p->ammo[kAmmoFire] == 0 && below(2) == 0) {
    p->ammo[kAmmoFire] = 1;
    // The side's own fire grenade, and one time in four the other side's
    // (picked up), which only its weapon entity tells apart; the own one
    // has its entity half the time.
    const int own = p->team == 2 ? kMolotovItem : kIncendiaryItem;
    const int other = own == kMolotovItem ? kIncendiaryItem : kMolotovItem;
    p->fire_item = below(4) == 0 ? other : own;
    if (weapon_class_ >= 0 && (p->fire_item == other || below(2) == 0)) {
      p->fire = world_->Create(weapon_class_);
      if (p->fire != nullptr) {
        world_->Set(p->fire, "m_iItemDefinitionIndex",
                    world_->Number(*p->fire, "m_iItemDefinitionIndex", p->fire_item));
      }
    }
  }
  SetAmmo(p);
}

void Cs2Match::SetAmmo(Player* p) {
  for (int i = 0; i < 5; ++i) {
    const std::string name = "m_pWeaponServices.m_iAmmo.00" + std::to_string(13 + i);
    if (world_->PathOf(p->pawn->class_id, name) == nullptr) continue;
    world_->Set(p->pawn, name, world_->Number(*p->pawn, name, p->ammo[i]));
  }
  // m_hMyWeapons' third entry: the fire grenade's entity, or none.
  const FieldPath* length_path = world_->PathOf(p->pawn->class_id, "m_pWeaponServices.m_hMyWeapons");
  if (length_path == nullptr) return;
  const Value length = world_->Get(*p->pawn, "m_pWeaponServices.m_hMyWeapons");
  if (length.kind != ValueKind::kUint || length.u < 3) {
    world_->SetPath(p->pawn, *length_path, Value::Uint(3));
  }
  FieldPath element = *length_path;
  element.last += 1;
  element.index[element.last] = 2;
  world_->SetPath(p->pawn, element,
                  Value::Uint(p->fire != nullptr ? p->fire->handle() : kNoHandle));
}

void Cs2Match::UseGrenade(Player* p, const std::string& kind) {
  const int i = kind == "he" ? kAmmoHe : kind == "flash" ? kAmmoFlash : kind == "smoke" ? kAmmoSmoke
                : kind == "decoy" ? kAmmoDecoy : kAmmoFire;
  if (p->ammo[i] == 0) return;  // a grenade the match did not buy: thrown all the same
  --p->ammo[i];
  if (i == kAmmoFire) {
    p->fire_item = 0;
    if (p->fire != nullptr) world_->Delete(p->fire);
    p->fire = nullptr;
  }
  SetAmmo(p);
}

void Cs2Match::DropUtility(Player* p) {
  std::fill(std::begin(p->ammo), std::end(p->ammo), 0);
  p->fire_item = 0;
  if (p->fire != nullptr) world_->Delete(p->fire);
  p->fire = nullptr;
  SetAmmo(p);
}

std::string Cs2Match::UtilityTruth(const Player& p) const {
  // gem's order and names (core/cs2/utility_held.cc): flashbang, hegrenade,
  // smokegrenade, molotov, incgrenade, decoy.
  const int fire = p.ammo_before[kAmmoFire];
  const std::pair<const char*, int> held[] = {
      {"flashbang", p.ammo_before[kAmmoFlash]},
      {"hegrenade", p.ammo_before[kAmmoHe]},
      {"smokegrenade", p.ammo_before[kAmmoSmoke]},
      {"molotov", p.fire_item_before == kMolotovItem ? fire : 0},
      {"incgrenade", p.fire_item_before == kIncendiaryItem ? fire : 0},
      {"decoy", p.ammo_before[kAmmoDecoy]}};
  constexpr int kPrices[] = {200, 300, 300, 400, 500, 50};  // the buy menu's
  std::string json = "{";
  int value = 0;
  for (size_t k = 0; k < std::size(held); ++k) {
    if (held[k].second == 0) continue;
    if (json.size() > 1) json += ",";
    json += "\"" + std::string(held[k].first) + "\":" + std::to_string(held[k].second);
    value += held[k].second * kPrices[k];
  }
  return "\"utility_held\":" + Json(json + "}").dump() + ",\"utility_value\":" +
         std::to_string(value);
}

}  // namespace gem::synth
