#include "core/cs2/grenades.h"

#include <array>
#include <cmath>

#include "core/cs2/tables.h"

namespace gem::cs2 {
namespace {

using match::MatchContext;

// A fire belongs to the molotov that burst within this many units of it.
constexpr double kFireReach = 128.0;

bool SamePoint(const MatchValue& a, const MatchValue& b) {
  if (a.kind != b.kind) return false;
  return a.kind != MatchValue::Kind::kReal || a.r == b.r;
}

// A Vector field as three cells; false when it is no 3-vector.
bool VectorCells(const Value& v, MatchValue* x, MatchValue* y, MatchValue* z) {
  if (v.kind != ValueKind::kVector || v.count < 3) return false;
  *x = MatchValue::Real(v.v[0]);
  *y = MatchValue::Real(v.v[1]);
  *z = MatchValue::Real(v.v[2]);
  return true;
}

}  // namespace

std::string Grenades::KindOf(MatchContext& ctx, const Entity& e) {
  const std::string_view c = ctx.ClassName(e.class_id);
  if (c == "CSmokeGrenadeProjectile") return "smoke";
  if (c == "CFlashbangProjectile") return "flash";
  if (c == "CHEGrenadeProjectile") return "he";
  if (c == "CDecoyProjectile") return "decoy";
  if (c == "CMolotovProjectile") {
    // The kind is set as the projectile is made: its creation state.
    const std::optional<int64_t> inc = match::AsInt(incendiary_.Read(e));
    return inc.value_or(0) != 0 ? "incendiary" : "molotov";
  }
  return "";
}

Grenades::Grenade* Grenades::Alive(int32_t index) {
  auto it = alive_.find(index);
  return it == alive_.end() ? nullptr : &grenades_[it->second];
}

MatchValue Grenades::IdAt(int32_t index) const {
  auto it = alive_.find(index);
  if (it == alive_.end()) {
    it = deleted_now_.find(index);
    if (it == deleted_now_.end()) return MatchValue();
  }
  return MatchValue::Int(grenades_[it->second].id);
}

int Grenades::WentOffAt(std::string_view kind, int64_t tick, MatchValue* id,
                        int32_t* thrower) const {
  // Grenades go off in throw order, a few at most at one tick.
  int n = 0;
  for (auto it = grenades_.rbegin(); it != grenades_.rend(); ++it) {
    if (it->kind != kind || it->detonate_tick.kind != MatchValue::Kind::kInt) continue;
    if (it->detonate_tick.i != tick) continue;
    if (n++ == 0) {
      *id = MatchValue::Int(it->id);
      *thrower = it->thrower;
    }
  }
  return n;
}

int Grenades::Burning(int32_t* thrower) const {
  for (const auto& [index, at] : infernos_) *thrower = grenades_[at].thrower;
  return static_cast<int>(infernos_.size());
}

void Grenades::OnEntityCreated(MatchContext& ctx, MatchState& state, const Entity& e) {
  const std::string_view c = ctx.ClassName(e.class_id);
  if (c == "CInferno") {
    // Its molotov burst in this frame: matched at the frame's end, when
    // the packet's deletions are in too.
    new_fires_.push_back(e.index);
    return;
  }
  std::string kind = KindOf(ctx, e);
  if (kind.empty()) return;
  Grenade g;
  g.id = static_cast<int64_t>(grenades_.size()) + 1;
  g.entity = e.lifetime;
  g.throw_tick = ctx.tick();
  g.game_time = state.Clock(ctx);
  g.round = state.Round(ctx);
  g.kind = std::move(kind);
  g.index = e.index;
  if (const Entity* pawn = ctx.ByHandle(match::ReadInt(thrower_, &e))) {
    g.thrower = state.SlotOfEntity(ctx, *pawn);
  }
  if (g.thrower < 0) ++without_thrower_;
  grenades_.push_back(std::move(g));
  alive_[e.index] = grenades_.size() - 1;
  PathPoint(ctx, state, &grenades_.back(), e);
}

void Grenades::Detonate(Grenade* g, int64_t tick, MatchValue x, MatchValue y, MatchValue z) {
  g->detonate_tick = MatchValue::Int(tick);
  g->x = x;
  g->y = y;
  g->z = z;
  // A flash and an HE are over as they go off.
  if (g->kind == "flash" || g->kind == "he") g->end_tick = g->detonate_tick;
}

void Grenades::OnEntityDeleted(MatchContext& ctx, MatchState& state, const Entity& e) {
  if (auto fire = infernos_.find(e.index); fire != infernos_.end()) {
    Grenade& g = grenades_[fire->second];
    if (g.end_tick.is_null()) g.end_tick = MatchValue::Int(ctx.tick());
    fires_gone_now_[fire->first] = fire->second;
    infernos_.erase(fire);
    return;
  }
  auto it = alive_.find(e.index);
  if (it == alive_.end()) return;
  Grenade& g = grenades_[it->second];
  if (g.detonate_tick.is_null()) {
    Detonate(&g, ctx.tick(), g.last_x, g.last_y, g.last_z);
  }
  // A molotov's end is its fire's.
  if (g.end_tick.is_null() && g.kind != "molotov" && g.kind != "incendiary") {
    g.end_tick = MatchValue::Int(ctx.tick());
  }
  g.index = -1;
  deleted_now_[e.index] = it->second;
  alive_.erase(it);
  (void)state;
}

void Grenades::OnGameEvent(MatchContext& ctx, MatchState& state, const GameEvent& e,
                           EventKeys& keys) {
  const std::string_view n = e.name;
  const bool detonate = n == "smokegrenade_detonate" || n == "flashbang_detonate" ||
                        n == "hegrenade_detonate" || n == "decoy_started";
  const bool expire = n == "smokegrenade_expired" || n == "decoy_detonate";
  const bool fire_out = n == "inferno_expire" || n == "inferno_extinguish";
  if (!detonate && !expire && !fire_out) return;
  const std::optional<int64_t> id = keys.Int(e, "entityid");
  if (!id) {
    ++events_without_grenade_;
    return;
  }
  const int32_t index = static_cast<int32_t>(*id);
  if (fire_out) {
    // The fire may be gone already in this frame (deletions come first).
    auto fire = infernos_.find(index);
    size_t pos = 0;
    if (fire != infernos_.end()) {
      pos = fire->second;
    } else if (auto gone = fires_gone_now_.find(index); gone != fires_gone_now_.end()) {
      pos = gone->second;
    } else {
      ++events_without_grenade_;
      return;
    }
    Grenade& g = grenades_[pos];
    if (g.end_tick.is_null()) g.end_tick = MatchValue::Int(ctx.tick());
    return;
  }
  Grenade* g = Alive(index);
  if (g == nullptr) {
    auto gone = deleted_now_.find(index);
    if (gone != deleted_now_.end()) g = &grenades_[gone->second];
  }
  if (g == nullptr) {
    ++events_without_grenade_;
    return;
  }
  if (detonate) {
    Detonate(g, ctx.tick(), keys.RealCell(e, "x"), keys.RealCell(e, "y"), keys.RealCell(e, "z"));
    g->detonated_by_event = true;
  } else if (g->end_tick.is_null()) {
    g->end_tick = MatchValue::Int(ctx.tick());
  }
  (void)state;
}

void Grenades::PathPoint(MatchContext& ctx, MatchState& state, Grenade* g, const Entity& e) {
  MatchValue x, y, z;
  state.Position(&e, &x, &y, &z);
  if (x.is_null()) return;
  if (SamePoint(x, g->last_x) && SamePoint(y, g->last_y) && SamePoint(z, g->last_z)) return;
  g->last_x = x;
  g->last_y = y;
  g->last_z = z;
  std::array<MatchValue, kPathColumns> row{};
  row[kPathId] = MatchValue::Int(g->id);
  row[kPathTick] = MatchValue::Int(ctx.tick());
  row[kPathX] = x;
  row[kPathY] = y;
  row[kPathZ] = z;
  ctx.Row(kGrenadePaths, row);
}

void Grenades::OnFrameEnd(MatchContext& ctx, MatchState& state) {
  for (auto& [index, pos] : alive_) {
    const Entity* e = ctx.Get(index);
    if (e == nullptr) continue;
    Grenade& g = grenades_[pos];
    // Once gone off a grenade lies still (a smoke, a decoy): its path ends.
    if (!g.detonate_tick.is_null()) continue;
    PathPoint(ctx, state, &g, *e);
    // Without its event, the projectile tells when it went off.
    MatchValue x, y, z;
    if (g.kind == "smoke") {
      if (match::AsInt(did_smoke_.Read(*e)).value_or(0) != 0) {
        if (!VectorCells(smoke_pos_.Read(*e), &x, &y, &z)) state.Position(e, &x, &y, &z);
        Detonate(&g, ctx.tick(), x, y, z);
      }
    } else if (g.kind == "flash" || g.kind == "he") {
      if (match::AsInt(explode_tick_.Read(*e)).value_or(0) > 0) {
        if (!VectorCells(explode_pos_.Read(*e), &x, &y, &z)) state.Position(e, &x, &y, &z);
        Detonate(&g, ctx.tick(), x, y, z);
      }
    }
  }
  // Each fire that started in this frame is the burst molotov's nearest it.
  for (int32_t fire : new_fires_) {
    const Entity* e = ctx.Get(fire);
    if (e == nullptr) continue;
    MatchValue x, y, z;
    state.Position(e, &x, &y, &z);
    if (x.kind != MatchValue::Kind::kReal) continue;
    for (auto& [index, pos] : deleted_now_) {
      Grenade& g = grenades_[pos];
      if ((g.kind != "molotov" && g.kind != "incendiary") || g.inferno >= 0) continue;
      if (g.x.kind != MatchValue::Kind::kReal) continue;
      if (std::hypot(x.r - g.x.r, y.r - g.y.r) <= kFireReach) {
        g.inferno = fire;
        infernos_[fire] = pos;
        break;
      }
    }
  }
  new_fires_.clear();
  deleted_now_.clear();
  fires_gone_now_.clear();
}

void Grenades::Finish(MatchContext& ctx) const {
  for (const Grenade& g : grenades_) {
    std::array<MatchValue, kGrenadeColumns> row{};
    row[kGrenId] = MatchValue::Int(g.id);
    row[kGrenEntity] = MatchValue::Int(static_cast<int64_t>(g.entity));
    row[kGrenTick] = MatchValue::Int(g.throw_tick);
    row[kGrenTime] = g.game_time;
    row[kGrenRound] = g.round;
    row[kGrenKind] = MatchValue::Text(g.kind);
    if (g.thrower >= 0) row[kGrenThrower] = MatchValue::Int(g.thrower);
    row[kGrenThrowTick] = MatchValue::Int(g.throw_tick);
    row[kGrenDetonateTick] = g.detonate_tick;
    // A molotov gone without a fire (into water, a smoke) ended as it burst.
    const bool fizzled = (g.kind == "molotov" || g.kind == "incendiary") && g.index < 0 &&
                         g.inferno < 0;
    row[kGrenEndTick] = fizzled && g.end_tick.is_null() ? g.detonate_tick : g.end_tick;
    row[kGrenX] = g.x;
    row[kGrenY] = g.y;
    row[kGrenZ] = g.z;
    ctx.Row(kGrenades, row);
  }
}

std::vector<std::pair<std::string, uint64_t>> Grenades::Counters() const {
  return {{"grenades_without_thrower", without_thrower_},
          {"grenade_events_without_grenade", events_without_grenade_}};
}

}  // namespace gem::cs2
