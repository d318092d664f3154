// Cs2Match's aim: weapons in hand, spotted masks and sightings, turning to
// a victim, counter-strafing and bursts (see cs2_match.h).
//
// The truth's sightings follow core/cs2/sightings.h's rule, computed here
// from the match's own record of who is alive, on which team and what each
// pawn's mask holds, with the eyes, heads and view read back from the
// fields as a reader decodes them.
#include <algorithm>
#include <cmath>

#include "tools/synth/cs2_match.h"

namespace gem::synth {
namespace {

constexpr int64_t kNoHandle = 0xFFFFFF;
constexpr double kRadians = M_PI / 180;
constexpr uint32_t kBulletTicks = 6;   // an automatic rifle's cycle, 0.1 s
constexpr uint32_t kBurstReset = 8;    // ticks after a shot the recoil count resets

const char* ItemName(int item) {
  switch (item) {
    case 4: return "glock";
    case 7: return "ak47";
    case 16: return "m4a1";
    case 61: return "usp_silencer";
    default: return "";
  }
}

bool Rifle(int item) { return item == 7 || item == 16; }

// Degrees in [-180, 180), as the tables give angles.
double Normal(double a) {
  a = std::fmod(a + 180.0, 360.0);
  if (a < 0) a += 360.0;
  return static_cast<double>(static_cast<float>(a - 180.0));
}

// Whether `head` is in the view from `eye` along (pitch, yaw): the view
// turned into its own axes (yaw about z, then pitch), ahead, at most 4/3
// of the depth across and 3/4 of it up or down; `angle` the degrees off the
// view's line.
bool InView(const double eye[3], double pitch, double yaw, const double head[3],
            double* angle) {
  const double dx = head[0] - eye[0], dy = head[1] - eye[1], dz = head[2] - eye[2];
  const double cy = std::cos(yaw * kRadians), sy = std::sin(yaw * kRadians);
  const double ahead = dx * cy + dy * sy, left = -dx * sy + dy * cy;
  const double cp = std::cos(pitch * kRadians), sp = std::sin(pitch * kRadians);
  const double depth = ahead * cp - dz * sp, up = ahead * sp + dz * cp;
  const double length = std::sqrt(dx * dx + dy * dy + dz * dz);
  *angle = length > 0 ? std::acos(std::max(-1.0, std::min(1.0, depth / length))) / kRadians : 0;
  return depth > 0 && std::fabs(left) <= depth * 4.0 / 3.0 && std::fabs(up) <= depth * 0.75;
}

}  // namespace

void Cs2Match::ArmPlayers() {
  weapon_class_ = world_->ClassId("CWeaponGlock");
  if (weapon_class_ >= 0 && (!world_->EnsureBaseline(weapon_class_) ||
                             world_->PathOf(weapon_class_, "m_iItemDefinitionIndex") == nullptr)) {
    weapon_class_ = -1;
  }
  if (weapon_class_ < 0) return;
  for (Player& p : players_) {
    p.primary = world_->Create(weapon_class_);
    p.pistol = world_->Create(weapon_class_);
  }
}

void Cs2Match::Hold(Player* p, int item) {
  p->item = item;
  if (item != 0) p->weapon = ItemName(item);
  if (weapon_class_ < 0 || p->primary == nullptr || p->pistol == nullptr) return;
  int64_t handle = kNoHandle;
  if (item != 0) {
    SimEntity* w = Rifle(item) ? p->primary : p->pistol;
    world_->Set(w, "m_iItemDefinitionIndex", world_->Number(*w, "m_iItemDefinitionIndex", item));
    handle = w->handle();
  }
  const char* active = "m_pWeaponServices.m_hActiveWeapon";
  world_->Set(p->pawn, active, world_->Number(*p->pawn, active, static_cast<double>(handle)));
}

void Cs2Match::HoldForRound(Player* p, bool bought) {
  const bool pistol_round = round_ == 1 || round_ == options_.rounds / 2 + 1;
  if (!pistol_round && bought) {
    Hold(p, p->team == 2 ? 7 : 16);
  } else {
    Hold(p, p->team == 2 ? 4 : 61);
  }
}

void Cs2Match::EyeOf(const Player& p, double out[3]) {
  WorldPos(*p.pawn, &out[0], &out[1], &out[2]);
  const Value offset = world_->Get(*p.pawn, "m_vecViewOffset.m_vecZ");
  out[2] += offset.kind == ValueKind::kFloat ? offset.f : 64.0;
}

bool Cs2Match::SeenNow(const Player& observer, const Player& target) const {
  auto m = masks_.find(target.slot);
  return m != masks_.end() && (m->second >> observer.slot & 1) != 0 && observer.alive &&
         target.alive && observer.team != target.team;
}

void Cs2Match::AimAt(Player* p, const Player& target) {
  double eye[3], head[3];
  EyeOf(*p, eye);
  EyeOf(target, head);
  const double dx = head[0] - eye[0], dy = head[1] - eye[1], dz = head[2] - eye[2];
  // On the head, give or take a degree.
  const float angles[3] = {
      static_cast<float>(-std::atan2(dz, std::hypot(dx, dy)) / kRadians + Uniform() * 2 - 1),
      static_cast<float>(std::atan2(dy, dx) / kRadians + Uniform() * 2 - 1), 0};
  world_->Set(p->pawn, "m_angEyeAngles", Value::Vector(angles, 3));
}

void Cs2Match::MaybeCounterStrafe(Player* p) {
  if (Uniform() < 0.5) return;
  const double keep = Uniform() * 0.3;
  p->vx *= keep;
  p->vy *= keep;
  world_->Set(p->pawn, "m_vecVelocity.m_vecX", world_->Number(*p->pawn, "m_vecVelocity.m_vecX", p->vx));
  world_->Set(p->pawn, "m_vecVelocity.m_vecY", world_->Number(*p->pawn, "m_vecVelocity.m_vecY", p->vy));
}

void Cs2Match::Bursts(uint32_t tick) {
  for (Player& p : players_) {
    if (p.shots_fired > 0 && tick - p.last_shot > kBurstReset) {
      p.shots_fired = 0;
      world_->Set(p.pawn, "m_iShotsFired", world_->Number(*p.pawn, "m_iShotsFired", 0));
    }
    if (!p.alive) p.burst_left = 0;
    if (p.burst_left > 0 && tick >= p.next_bullet) {
      --p.burst_left;
      p.next_bullet = tick + kBulletTicks;
      Shot(tick, &p, "weapon_" + p.weapon);
    }
  }
}

void Cs2Match::SightingTruth(const Sighting& s, int64_t end_tick, const char* ended) {
  Truth("{\"kind\":\"sighting\",\"tick\":" + std::to_string(s.tick) + ",\"round\":" +
        Opt(s.round, s.round > 0) + ",\"observer\":" + std::to_string(s.observer) +
        ",\"target\":" + std::to_string(s.target) + ",\"end_tick\":" +
        Opt(end_tick, end_tick >= 0) + ",\"ended\":" +
        (ended ? std::string("\"") + ended + "\"" : "null") + ",\"fov_tick\":" +
        Opt(s.fov_tick, s.fov_tick >= 0) + ",\"pitch\":" + Num(s.pitch) + ",\"yaw\":" +
        Num(s.yaw) + ",\"head_angle\":" + Num(s.head_angle) + ",\"distance\":" +
        Num(s.distance) + "}");
}

void Cs2Match::Spot(uint32_t tick) {
  // The masks the game keeps: on each live pawn, every other live player
  // within range, teammates too. A dead pawn's stays as it was.
  for (Player& t : players_) {
    if (!t.alive) continue;
    uint64_t m = 0;
    for (const Player& o : players_) {
      if (&o == &t || !o.alive || o.slot < 0 || o.slot >= 64) continue;
      if (std::hypot(o.x - t.x, o.y - t.y) < kSpotRange ||
          (t.hit_tick == tick && (t.hit_by >> o.slot & 1) != 0)) {
        m |= uint64_t{1} << o.slot;
      }
    }
    // The flaw: in round 2 a bit of slot 40, no player's, for a second.
    if (options_.flaws && round_ == 2 && live_ && tick >= freeze_end_ + 200 &&
        tick < freeze_end_ + 264 && &t == &players_.front()) {
      m |= uint64_t{1} << 40;
    }
    uint64_t& last = masks_[t.slot];
    if (m == last) continue;
    for (int word = 0; word < 2; ++word) {
      const std::string name = word == 0 ? "m_bSpottedByMask.0000" : "m_bSpottedByMask.0001";
      if ((m >> (32 * word) & 0xFFFFFFFF) != (last >> (32 * word) & 0xFFFFFFFF)) {
        world_->Set(t.pawn, name,
                    world_->Number(*t.pawn, name, static_cast<double>(m >> (32 * word) & 0xFFFFFFFF)));
      }
    }
    last = m;
  }
  auto player = [&](int32_t slot) -> Player& { return players_[static_cast<size_t>(Index(slot))]; };
  // The sightings: those that end, the field of view, and new ones.
  size_t kept = 0;
  for (Sighting& s : sightings_) {
    const Player& o = player(s.observer);
    const Player& t = player(s.target);
    const char* ended = !o.alive ? "observer_dead"
                        : !t.alive ? "target_dead"
                        : !SeenNow(o, t) ? "unspotted"
                                         : nullptr;
    if (ended != nullptr) {
      SightingTruth(s, tick, ended);
      continue;
    }
    if (s.fov_tick < 0) {
      double eye[3], head[3], angle;
      EyeOf(o, eye);
      EyeOf(t, head);
      const Value a = world_->Get(*o.pawn, "m_angEyeAngles");
      if (InView(eye, a.v[0], a.v[1], head, &angle)) s.fov_tick = tick;
    }
    sightings_[kept++] = s;
  }
  sightings_.resize(kept);
  for (const Player& t : players_) {
    for (const Player& o : players_) {
      if (!SeenNow(o, t)) continue;
      const bool open = std::any_of(sightings_.begin(), sightings_.end(), [&](const Sighting& s) {
        return s.observer == o.slot && s.target == t.slot;
      });
      if (open) continue;
      Sighting s{o.slot, t.slot, tick};
      s.round = round_;
      double eye[3], head[3];
      EyeOf(o, eye);
      EyeOf(t, head);
      const Value a = world_->Get(*o.pawn, "m_angEyeAngles");
      s.pitch = Normal(a.v[0]);
      s.yaw = Normal(a.v[1]);
      if (InView(eye, a.v[0], a.v[1], head, &s.head_angle)) s.fov_tick = tick;
      s.distance = std::hypot(head[0] - eye[0], head[1] - eye[1], head[2] - eye[2]);
      sightings_.push_back(s);
    }
  }
}

void Cs2Match::FinishSightings() {
  for (const Sighting& s : sightings_) SightingTruth(s, -1, nullptr);
  sightings_.clear();
}

}  // namespace gem::synth
