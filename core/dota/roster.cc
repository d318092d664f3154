#include "core/dota/roster.h"

#include <cstdio>

namespace gem::dota {
namespace {

std::string Indexed(const char* array, int i, const char* field) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s.%04d.%s", array, i, field);
  return buf;
}

const Entity* Checked(match::MatchContext& ctx, int32_t index, uint64_t lifetime) {
  const Entity* e = index >= 0 ? ctx.Get(index) : nullptr;
  return e != nullptr && e->lifetime == lifetime ? e : nullptr;
}

}  // namespace

PlayerFields::PlayerFields(int i)
    : team(Indexed("m_vecPlayerData", i, "m_iPlayerTeam")),
      name(Indexed("m_vecPlayerData", i, "m_iszPlayerName")),
      steam_id(Indexed("m_vecPlayerData", i, "m_iPlayerSteamID")),
      hero(Indexed("m_vecPlayerTeamData", i, "m_hSelectedHero")),
      team_slot(Indexed("m_vecPlayerTeamData", i, "m_iTeamSlot")),
      kills(Indexed("m_vecPlayerTeamData", i, "m_iKills")),
      deaths(Indexed("m_vecPlayerTeamData", i, "m_iDeaths")),
      assists(Indexed("m_vecPlayerTeamData", i, "m_iAssists")),
      selected_hero_id(Indexed("m_vecPlayerTeamData", i, "m_nSelectedHeroID")),
      teamfight_participation(
          Indexed("m_vecPlayerTeamData", i, "m_flTeamFightParticipation")) {}

Roster::Kind Roster::KindOf(match::MatchContext& ctx, int32_t class_id) {
  if (class_id < 0) return kOther;
  const size_t c = static_cast<size_t>(class_id);
  if (c >= kinds_.size()) kinds_.resize(c + 1, -1);
  if (kinds_[c] < 0) {
    const std::string_view n = ctx.ClassName(class_id);
    kinds_[c] = n == "CDOTA_PlayerResource"    ? kResource
                : n == "CDOTA_DataRadiant"     ? kRadiantData
                : n == "CDOTA_DataDire"        ? kDireData
                : n == "CDOTAGamerulesProxy"   ? kRules
                : n == "CDOTAPlayerController" ? kController
                                               : kOther;
  }
  return static_cast<Kind>(kinds_[c]);
}

void Roster::OnCreated(match::MatchContext& ctx, const Entity& e) {
  switch (KindOf(ctx, e.class_id)) {
    case kResource: resource_ = e.index; stale_ = true; break;
    case kRadiantData: radiant_ = e.index; break;
    case kDireData: dire_ = e.index; break;
    case kController: controllers_.insert(e.index); stale_ = true; break;
    default:
      for (uint32_t h : wanted_) {
        if (h != 0 && h == e.handle()) stale_ = true;
      }
      break;
  }
}

void Roster::OnDeleted(match::MatchContext& ctx, const Entity& e) {
  const Kind k = KindOf(ctx, e.class_id);
  if (k == kController) controllers_.erase(e.index);
  if (k == kController || k == kResource) stale_ = true;
  for (const Slot& s : slots_) {
    if (s.hero_index == e.index && s.hero_lifetime == e.lifetime) stale_ = true;
  }
}

void Roster::OnUpdated(match::MatchContext&, const Entity& e, std::span<const FieldChange> c) {
  if (stale_) return;
  for (const FieldChange& f : c) {
    if (moves_.Code(e, f.field_id) != 0) {
      stale_ = true;
      return;
    }
  }
}

void Roster::MapControllers(match::MatchContext& ctx, const Entity* res,
                            const Entity* (&out)[kMaxPlayers]) {
  // Controllers name their player by m_nPlayerID, doubled since 7.31. The
  // numbering that puts more controllers on their player's team wins.
  const Entity* plain_map[kMaxPlayers] = {};
  const Entity* doubled_map[kMaxPlayers] = {};
  int plain = 0, doubled = 0;
  for (int32_t index : controllers_) {
    const Entity* c = ctx.Get(index);
    if (c == nullptr) continue;
    const std::optional<int64_t> id = match::ReadInt(controller_id_, c);
    const int64_t team = match::ReadInt(team_num_, c).value_or(0);
    if (!id || *id < 0 || team == 0) continue;
    if (*id < kMaxPlayers) {
      plain_map[*id] = c;
      if (TeamOf(res, int(*id)) == team) ++plain;
    }
    if (*id % 2 == 0 && *id / 2 < kMaxPlayers) {
      doubled_map[*id / 2] = c;
      if (TeamOf(res, int(*id / 2)) == team) ++doubled;
    }
  }
  const Entity* const* chosen = doubled >= plain ? doubled_map : plain_map;
  for (int i = 0; i < kMaxPlayers; ++i) out[i] = chosen[i];
}

void Roster::Rebuild(match::MatchContext& ctx) {
  stale_ = false;
  ++generation_;
  const Entity* res = resource(ctx);
  const Entity* controllers[kMaxPlayers] = {};
  if (res != nullptr) MapControllers(ctx, res, controllers);
  for (int i = 0; i < kMaxPlayers; ++i) {
    Slot& s = slots_[i];
    s = Slot();
    wanted_[i] = 0;
    if (res == nullptr) continue;
    s.team = TeamOf(res, i);
    if (s.team == 0) continue;
    s.controller = controllers[i];
    // The player resource's hero, else the controller's.
    std::optional<int64_t> handle = match::ReadInt(player(i).hero, res);
    const Entity* hero = ctx.ByHandle(handle);
    if (hero == nullptr && s.controller != nullptr) {
      const std::optional<int64_t> assigned = match::ReadInt(assigned_hero_, s.controller);
      if (const Entity* h = ctx.ByHandle(assigned)) {
        hero = h;
      } else if (!handle || ctx.ByHandle(handle) == nullptr) {
        if (assigned) handle = assigned;
      }
    }
    if (handle && *handle >= 0 && *handle <= UINT32_MAX) wanted_[i] = static_cast<uint32_t>(*handle);
    s.hero = hero;
    if (hero != nullptr) {
      s.hero_index = hero->index;
      s.hero_lifetime = hero->lifetime;
      s.hero_name.assign(ctx.EntityName(*hero));
    }
    if (s.controller != nullptr) {
      s.controller_index = s.controller->index;
      s.controller_lifetime = s.controller->lifetime;
    }
  }
}

std::span<Roster::Slot> Roster::heroes(match::MatchContext& ctx) {
  if (stale_) {
    Rebuild(ctx);
  } else {
    for (Slot& s : slots_) {
      s.hero = Checked(ctx, s.hero_index, s.hero_lifetime);
      s.controller = Checked(ctx, s.controller_index, s.controller_lifetime);
    }
  }
  return slots_;
}

int Roster::SlotOfHero(match::MatchContext& ctx, const Entity* hero) {
  if (hero == nullptr) return -1;
  std::span<Slot> slots = heroes(ctx);
  for (int i = 0; i < kMaxPlayers; ++i) {
    if (slots[i].hero == hero) return i;
  }
  return -1;
}

// These two run for every order and every combat-log entry: they compare
// the slots' keys first and check only the entity that matches is still
// the one the slot names, not all of them as heroes() does.
int Roster::SlotOfController(match::MatchContext& ctx, int32_t index) {
  if (index < 0) return -1;
  if (stale_) Rebuild(ctx);
  for (int i = 0; i < kMaxPlayers; ++i) {
    Slot& s = slots_[i];
    if (s.controller_index != index) continue;
    s.controller = Checked(ctx, s.controller_index, s.controller_lifetime);
    if (s.controller != nullptr) return i;
  }
  return -1;
}

int Roster::SlotOfHeroName(match::MatchContext& ctx, std::string_view name) {
  if (name.empty()) return -1;
  if (stale_) Rebuild(ctx);
  for (int i = 0; i < kMaxPlayers; ++i) {
    Slot& s = slots_[i];
    if (s.hero_index < 0 || s.hero_name != name) continue;
    s.hero = Checked(ctx, s.hero_index, s.hero_lifetime);
    if (s.hero != nullptr) return i;
  }
  return -1;
}

int Roster::SlotOfOwner(match::MatchContext& ctx, std::optional<int64_t> owner_handle) {
  const Entity* owner = ctx.ByHandle(owner_handle);
  if (owner == nullptr) return -1;
  std::span<Slot> slots = heroes(ctx);
  const bool controller = KindOf(ctx, owner->class_id) == kController;
  for (int i = 0; i < kMaxPlayers; ++i) {
    if ((controller ? slots[i].controller : slots[i].hero) == owner) return i;
  }
  return -1;
}

}  // namespace gem::dota
