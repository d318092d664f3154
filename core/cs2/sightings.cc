#include "core/cs2/sightings.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/cs2/tables.h"
#include "core/match/body.h"

namespace gem::cs2 {
namespace {

using match::MatchContext;

constexpr double kDegrees = 3.14159265358979323846 / 180.0;
constexpr double kDefaultEyeHeight = 64.0;  // a standing pawn's view offset
// The field of view's half-widths as tangents (see sightings.h).
constexpr double kAcross = 4.0 / 3.0, kUpDown = 3.0 / 4.0;

bool ReadPoint(MatchState& state, const Entity* e, double out[3]) {
  MatchValue v[3];
  state.Position(e, &v[0], &v[1], &v[2]);
  for (int a = 0; a < 3; ++a) {
    if (v[a].kind != MatchValue::Kind::kReal) return false;
    out[a] = v[a].r;
  }
  return true;
}

}  // namespace

bool InFieldOfView(const double eye[3], double pitch, double yaw, const double point[3],
                   double* angle) {
  const double d[3] = {point[0] - eye[0], point[1] - eye[1], point[2] - eye[2]};
  const double sp = std::sin(pitch * kDegrees), cp = std::cos(pitch * kDegrees);
  const double sy = std::sin(yaw * kDegrees), cy = std::cos(yaw * kDegrees);
  // Source's view axes (pitch down positive, no roll).
  const double forward[3] = {cp * cy, cp * sy, -sp};
  const double right[3] = {sy, -cy, 0};
  const double up[3] = {sp * cy, sp * sy, cp};
  double depth = 0, across = 0, updown = 0, length2 = 0;
  for (int a = 0; a < 3; ++a) {
    depth += d[a] * forward[a];
    across += d[a] * right[a];
    updown += d[a] * up[a];
    length2 += d[a] * d[a];
  }
  if (angle != nullptr) {
    const double length = std::sqrt(length2);
    *angle = length > 0 ? std::acos(std::clamp(depth / length, -1.0, 1.0)) / kDegrees : 0;
  }
  return depth > 0 && std::fabs(across) <= kAcross * depth && std::fabs(updown) <= kUpDown * depth;
}

bool Sightings::Alive(const Entity* e) {
  return e != nullptr && match::ReadInt(life_, e).value_or(-1) == 0;
}

bool Sightings::Eye(MatchState& state, const Entity* e, double out[3]) {
  if (!ReadPoint(state, e, out)) return false;
  out[2] += match::ReadReal(view_offset_, e).value_or(kDefaultEyeHeight);
  return true;
}

void Sightings::TestFieldOfView(MatchContext& ctx, MatchState& state, Open& s) {
  double eye[3], head[3];
  const Value a = eyes_.Read(*s.observer_entity);
  if (a.kind == ValueKind::kVector && a.count >= 2 && Eye(state, s.observer_entity, eye) &&
      Eye(state, s.target_entity, head) && InFieldOfView(eye, a.v[0], a.v[1], head, nullptr)) {
    s.fov_tick = ctx.tick();
  }
}

void Sightings::OnFrameEnd(MatchContext& ctx, MatchState& state,
                           match::PlayerControllers& players) {
  if (!changed_) {
    // Nothing that opens or closes a sighting changed: the open ones hold.
    for (Open& s : open_) {
      if (s.fov_tick < 0) TestFieldOfView(ctx, state, s);
    }
    return;
  }
  changed_ = false;
  // Who is in play now, by slot: their pawn (in view) and team.
  const Entity* pawn[kMaxSlots] = {};
  int64_t team[kMaxSlots] = {};
  for (const PlayerNow& p : players.InPlay(ctx)) {
    if (p.slot < 0 || p.slot >= kMaxSlots) continue;
    pawn[p.slot] = match::InView(p.pawn);
    const MatchValue t = state.Team(ctx, p.slot);
    team[p.slot] = t.kind == MatchValue::Kind::kInt ? t.i : 0;
  }
  auto mask_of = [&](int32_t slot) -> uint64_t {
    const Entity* e = pawn[slot];
    if (e == nullptr) return 0;
    uint64_t m = 0;
    for (int w = 0; w < 2; ++w) {
      m |= static_cast<uint64_t>(static_cast<uint32_t>(match::ReadInt(mask_[w], e).value_or(0)))
           << (32 * w);
    }
    return m;
  };
  auto seen = [&](int32_t o, int32_t t, uint64_t target_mask) {
    return pawn[o] != nullptr && pawn[t] != nullptr && (target_mask >> o & 1) != 0 &&
           (team[o] == 2 || team[o] == 3) && (team[t] == 2 || team[t] == 3) &&
           team[o] != team[t] && Alive(pawn[o]) && Alive(pawn[t]);
  };
  // The open ones: still seen, else closed with why; the field of view.
  size_t kept = 0;
  for (Open& s : open_) {
    const Entity* o = pawn[s.observer];
    const Entity* t = pawn[s.target];
    const char* ended = nullptr;
    if (o == nullptr || t == nullptr || o->lifetime != s.observer_pawn ||
        t->lifetime != s.target_pawn || team[s.observer] == team[s.target]) {
      ended = "gone";
    } else if (!Alive(o)) {
      ended = "observer_dead";
    } else if (!Alive(t)) {
      ended = "target_dead";
    } else if (!seen(s.observer, s.target, mask_of(s.target))) {
      ended = "unspotted";
    }
    if (ended != nullptr) {
      Close(ctx, s, ended);
      continue;
    }
    s.observer_entity = o;
    s.target_entity = t;
    if (s.fov_tick < 0) TestFieldOfView(ctx, state, s);
    open_[kept++] = s;
  }
  open_.resize(kept);

  // New sightings, target by target.
  for (int32_t t = 0; t < kMaxSlots; ++t) {
    if (pawn[t] == nullptr) continue;
    const uint64_t m = mask_of(t);
    for (int32_t o = 0; o < kMaxSlots; ++o) {
      if ((m >> o & 1) == 0) continue;
      if (pawn[o] == nullptr && ((last_mask_[t] >> o) & 1) == 0) ++naming_no_player_;
      if (!seen(o, t, m)) continue;
      const bool already = std::any_of(open_.begin(), open_.end(), [&](const Open& s) {
        return s.observer == o && s.target == t;
      });
      if (already) continue;
      Open s;
      s.observer = o;
      s.target = t;
      s.observer_pawn = pawn[o]->lifetime;
      s.target_pawn = pawn[t]->lifetime;
      s.observer_entity = pawn[o];
      s.target_entity = pawn[t];
      s.tick = ctx.tick();
      s.game_time = state.Clock(ctx);
      s.round = state.Round(ctx);
      match::ReadPitchYaw(eyes_, pawn[o], &s.pitch, &s.yaw);
      double eye[3], head[3], angle = 0;
      if (s.pitch.kind == MatchValue::Kind::kReal && Eye(state, pawn[o], eye) &&
          Eye(state, pawn[t], head)) {
        if (InFieldOfView(eye, s.pitch.r, s.yaw.r, head, &angle)) s.fov_tick = s.tick;
        s.head_angle = MatchValue::Real(angle);
        s.distance = MatchValue::Real(
            std::hypot(head[0] - eye[0], head[1] - eye[1], head[2] - eye[2]));
      }
      open_.push_back(s);
    }
    last_mask_[t] = m;
  }
}

void Sightings::Close(MatchContext& ctx, const Open& s, const char* ended) {
  Write(ctx, s, MatchValue::Int(ctx.tick()), ended);
}

void Sightings::Write(MatchContext& ctx, const Open& s, const MatchValue& end_tick,
                      const char* ended) {
  std::array<MatchValue, kSightColumns> row{};
  row[kSightTick] = MatchValue::Int(s.tick);
  row[kSightTime] = s.game_time;
  row[kSightRound] = s.round;
  row[kSightObserver] = MatchValue::Int(s.observer);
  row[kSightTarget] = MatchValue::Int(s.target);
  row[kSightEndTick] = end_tick;
  row[kSightEnded] = ended ? MatchValue::Text(ended) : MatchValue();
  row[kSightFovTick] = s.fov_tick >= 0 ? MatchValue::Int(s.fov_tick) : MatchValue();
  row[kSightPitch] = s.pitch;
  row[kSightYaw] = s.yaw;
  row[kSightHeadAngle] = s.head_angle;
  row[kSightDistance] = s.distance;
  ctx.Row(kSightings, row);
  ++written_;
}

void Sightings::Finish(MatchContext& ctx) {
  for (const Open& s : open_) Write(ctx, s, MatchValue(), nullptr);
  open_.clear();
}

std::vector<std::pair<std::string, uint64_t>> Sightings::Counters() const {
  return {{"spotted_by_no_player", naming_no_player_}};
}

}  // namespace gem::cs2
