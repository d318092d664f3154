#include "core/cs2/bomb.h"

#include <array>

#include "core/cs2/tables.h"

namespace gem::cs2 {
namespace {

using match::MatchContext;

struct EventKind {
  const char* event;
  const char* kind;
};
constexpr EventKind kEvents[] = {
    {"bomb_pickup", "pickup"},        {"bomb_dropped", "drop"},
    {"bomb_beginplant", "plant_begin"}, {"bomb_planted", "plant"},
    {"bomb_begindefuse", "defuse_begin"}, {"bomb_defused", "defuse"},
    {"bomb_exploded", "explode"},
};

bool Flag(match::FieldReader& r, const Entity* e) {
  return e != nullptr && match::ReadInt(r, e).value_or(0) != 0;
}

}  // namespace

std::string Bomb::SiteLetter(std::optional<int64_t> site) {
  if (!site) return "";
  if (*site == 0) return "A";
  if (*site == 1) return "B";
  return "";
}

Bomb::Row Bomb::Make(MatchContext& ctx, MatchState& state, const char* kind, int32_t slot) {
  Row r;
  r.tick = ctx.tick();
  r.game_time = state.Clock(ctx);
  r.round = state.Round(ctx);
  r.kind = kind;
  r.slot = slot;
  const Entity* planted = planted_ >= 0 ? ctx.Get(planted_) : nullptr;
  // Where the bomb is once it is down; else where the player is.
  const bool down = r.kind != "pickup" && r.kind != "drop" && r.kind != "plant_begin";
  const Entity* at = down && planted != nullptr ? planted
                     : slot >= 0                 ? state.Pawn(ctx, slot)
                                                 : planted;
  state.Position(at, &r.x, &r.y, &r.z);
  if (planted != nullptr) r.site = SiteLetter(match::ReadInt(site_, planted));
  if (r.site.empty() && at != nullptr && slot >= 0 && r.kind.rfind("plant", 0) == 0) {
    // Before the bomb is down, the planter's bomb zone (1 A, 2 B).
    const std::optional<int64_t> zone = match::ReadInt(zone_, at);
    if (zone == 1) r.site = "A";
    if (zone == 2) r.site = "B";
  }
  return r;
}

void Bomb::OnEntityCreated(MatchContext& ctx, MatchState& state, const Entity& e) {
  const std::string_view c = ctx.ClassName(e.class_id);
  if (c == "CC4") {
    c4_ = e.index;
    owner_handle_.reset();
    // One the replay starts with is where it is, not picked up.
    c4_joined_ = ctx.tick() < 0;
  } else if (c == "CPlantedC4") {
    planted_ = e.index;
    defusing_ = defused_ = exploded_ = false;
    arming_ = false;
    Row r = Make(ctx, state, "plant", last_holder_);
    // A bomb_planted of this tick that came first learns its letter here.
    for (auto it = from_events_.rbegin(); it != from_events_.rend() && it->tick == r.tick;
         ++it) {
      if (it->kind != "plant") continue;
      // It came before the bomb was down: the bomb's place and letter.
      it->x = r.x;
      it->y = r.y;
      it->z = r.z;
      if (!it->site.empty()) continue;
      it->site = r.site;
      if (it->site_index >= 0 && !r.site.empty()) site_letters_[it->site_index] = r.site;
    }
    from_entities_.push_back(std::move(r));
  }
}

void Bomb::OnEntityDeleted(MatchContext&, const Entity& e) {
  if (e.index == c4_) c4_ = -1;
  if (e.index == planted_) planted_ = -1;
}

void Bomb::OnGameEvent(MatchContext& ctx, MatchState& state, const GameEvent& e,
                       EventKeys& keys) {
  for (const EventKind& k : kEvents) {
    if (e.name != k.event) continue;
    Row r = Make(ctx, state, k.kind, state.Participant(ctx, e, "userid"));
    if (const std::optional<int64_t> site = keys.Int(e, "site")) {
      r.site_index = *site;
      // The planted bomb tells the target's letter.
      if (!r.site.empty() && (r.kind == "plant" || r.kind == "defuse" || r.kind == "explode")) {
        site_letters_[*site] = r.site;
      }
    }
    from_events_.push_back(std::move(r));
    return;
  }
}

void Bomb::OnFrameEnd(MatchContext& ctx, MatchState& state) {
  const Entity* c4 = c4_ >= 0 ? ctx.Get(c4_) : nullptr;
  if (c4 != nullptr) {
    // The holder's slot, looked up again only when the owner changes.
    const std::optional<int64_t> handle = match::ReadInt(owner_, c4);
    if (handle != owner_handle_ || c4_joined_) {
      owner_handle_ = handle;
      const Entity* owner = ctx.ByHandle(handle);
      owner_slot_ = owner ? state.SlotOfEntity(ctx, *owner) : -1;
    }
    const int32_t holder = owner_slot_;
    if (c4_joined_) {
      c4_joined_ = false;
      holder_ = holder;
      if (holder >= 0) last_holder_ = holder;
    }
    if (holder != holder_) {
      if (holder_ >= 0) from_entities_.push_back(Make(ctx, state, "drop", holder_));
      if (holder >= 0) from_entities_.push_back(Make(ctx, state, "pickup", holder));
      holder_ = holder;
      if (holder >= 0) last_holder_ = holder;
    }
    const bool arming = Flag(arming_field_, c4);
    if (arming && !arming_) from_entities_.push_back(Make(ctx, state, "plant_begin", holder_));
    arming_ = arming;
  } else if (holder_ >= 0) {
    // The C4 went into the ground as it was planted (or is gone).
    holder_ = -1;
  }
  const Entity* planted = planted_ >= 0 ? ctx.Get(planted_) : nullptr;
  if (planted == nullptr) return;
  // Each flag of the planted bomb turning true is a row; `slot` names who.
  auto rise = [&](match::FieldReader& flag, bool* was, const char* kind, auto slot) {
    const bool now = Flag(flag, planted);
    if (now && !*was) from_entities_.push_back(Make(ctx, state, kind, slot()));
    *was = now;
  };
  auto defuser = [&] {
    const Entity* who = ctx.ByHandle(match::ReadInt(defuser_, planted));
    return who ? state.SlotOfEntity(ctx, *who) : -1;
  };
  rise(being_defused_, &defusing_, "defuse_begin", defuser);
  rise(defused_field_, &defused_, "defuse", defuser);
  // The bomb's planter is the player an explosion names, as its event does.
  rise(exploded_field_, &exploded_, "explode", [&] { return last_holder_; });
}

void Bomb::Write(MatchContext& ctx, std::vector<Plant>* plants,
                 uint64_t* unknown_sites) const {
  // Events where the replay has them; else what the entities showed.
  const std::vector<Row>& rows = from_events_.empty() ? from_entities_ : from_events_;
  std::string site;
  for (const Row& r : rows) {
    site = r.site;
    if (site.empty() && r.site_index >= 0) {
      auto it = site_letters_.find(r.site_index);
      if (it != site_letters_.end()) site = it->second;
    }
    const bool sited = r.kind != "pickup" && r.kind != "drop";
    if (sited && site.empty()) ++*unknown_sites;
    std::array<MatchValue, kBombColumns> row{};
    row[kBombTick] = MatchValue::Int(r.tick);
    row[kBombTime] = r.game_time;
    row[kBombRound] = r.round;
    row[kBombKind] = MatchValue::Text(r.kind);
    if (r.slot >= 0) row[kBombSlot] = MatchValue::Int(r.slot);
    if (sited && !site.empty()) row[kBombSite] = MatchValue::Text(site);
    row[kBombX] = r.x;
    row[kBombY] = r.y;
    row[kBombZ] = r.z;
    ctx.Row(kBomb, row);
    if (r.kind == "plant") plants->push_back({r.tick, r.round, site});
  }
}

std::vector<std::pair<std::string, uint64_t>> Bomb::Counters() const {
  return {{"bomb_rows_from_entities", from_events_.empty() ? from_entities_.size() : 0},
          {"bomb_rows_without_site", unknown_sites_}};
}

}  // namespace gem::cs2
