#include "core/dota/match_module.h"

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/dota/combat_log.h"
#include "core/dota/ward_tracker.h"
#include "core/match/body.h"
#include "core/match/game_clock.h"
#include "proto/dota_usermessages.pb.h"

namespace gem::dota {
namespace {

using match::FieldReader;
using match::GameModule;
using match::IntCell;
using match::MatchContext;
using match::RealCell;

// PlayerResource arrays hold up to this many players (OpenDota reads 30;
// the arrays of current builds have 24 entries).
constexpr int kMaxPlayers = 24;
constexpr int64_t kTeamRadiant = 2;
constexpr int64_t kTeamDire = 3;
constexpr int64_t kStatePreGame = 4;
constexpr int32_t kCombatLogDeath = 4;

constexpr MatchColumn kExtraColumns[] = {
    {"mana", "REAL"},         {"max_mana", "REAL"},   {"level", "INTEGER"},
    {"xp", "INTEGER"},        {"gold", "INTEGER"},    {"net_worth", "INTEGER"},
    {"last_hits", "INTEGER"}, {"denies", "INTEGER"},  {"kills", "INTEGER"},
    {"deaths", "INTEGER"},    {"assists", "INTEGER"},
};
enum ExtraColumn : size_t {
  kMana = kTimelineCommon, kMaxMana, kLevel, kXp, kGold, kNetWorth, kLastHits,
  kDenies, kKills, kDeaths, kAssists,
};

std::string Indexed(const char* array, int i, const char* field) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s.%04d.%s", array, i, field);
  return buf;
}

// The player resource's fields of one slot.
struct PlayerFields {
  explicit PlayerFields(int i)
      : team(Indexed("m_vecPlayerData", i, "m_iPlayerTeam")),
        name(Indexed("m_vecPlayerData", i, "m_iszPlayerName")),
        steam_id(Indexed("m_vecPlayerData", i, "m_iPlayerSteamID")),
        hero(Indexed("m_vecPlayerTeamData", i, "m_hSelectedHero")),
        team_slot(Indexed("m_vecPlayerTeamData", i, "m_iTeamSlot")),
        kills(Indexed("m_vecPlayerTeamData", i, "m_iKills")),
        deaths(Indexed("m_vecPlayerTeamData", i, "m_iDeaths")),
        assists(Indexed("m_vecPlayerTeamData", i, "m_iAssists")) {}
  FieldReader team, name, steam_id, hero, team_slot, kills, deaths, assists;
};

// A team data entity's fields of one team slot.
struct TeamDataFields {
  explicit TeamDataFields(int slot)
      : reliable(Indexed("m_vecDataTeam", slot, "m_iReliableGold")),
        unreliable(Indexed("m_vecDataTeam", slot, "m_iUnreliableGold")),
        xp(Indexed("m_vecDataTeam", slot, "m_iTotalEarnedXP")),
        net_worth(Indexed("m_vecDataTeam", slot, "m_iNetWorth")),
        last_hits(Indexed("m_vecDataTeam", slot, "m_iLastHitCount")),
        denies(Indexed("m_vecDataTeam", slot, "m_iDenyCount")) {}
  FieldReader reliable, unreliable, xp, net_worth, last_hits, denies;
};

class Module : public GameModule {
 public:
  std::span<const MatchColumn> extra_columns() const override { return kExtraColumns; }
  float cell_width() const override { return 128.0f; }

  bool Watches(std::string_view name) const override {
    return name == "CDOTA_NPC_Observer_Ward" || name == "CDOTA_NPC_Observer_Ward_TrueSight";
  }
  void OnEntityCreated(MatchContext& ctx, const Entity& e) override;
  void OnEntityUpdated(MatchContext& ctx, const Entity& e,
                       std::span<const FieldChange> changes) override {
    wards_.OnUpdated(ctx, e, changes);
  }
  void OnEntityDeleted(MatchContext& ctx, const Entity& e) override;
  void OnCombatLog(MatchContext& ctx, const CombatLogEntry& c) override;
  std::optional<double> GameTime(MatchContext& ctx, int64_t tick) override;
  void Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) override;
  void Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) override;

 private:
  enum Kind : int8_t { kOther, kResource, kRadiantData, kDireData, kRules, kController };
  Kind KindOf(MatchContext& ctx, int32_t class_id);
  const Entity* Singleton(MatchContext& ctx, int32_t index, Kind kind) {
    const Entity* e = index >= 0 ? ctx.Get(index) : nullptr;
    return e != nullptr && KindOf(ctx, e->class_id) == kind ? e : nullptr;
  }
  const Entity* resource(MatchContext& ctx) { return Singleton(ctx, resource_, kResource); }
  PlayerFields& player(int i) {
    if (!players_[i]) players_[i] = std::make_unique<PlayerFields>(i);
    return *players_[i];
  }
  TeamDataFields* team_data(int64_t slot) {
    if (slot < 0 || slot >= kMaxPlayers) return nullptr;
    if (!team_data_[slot]) team_data_[slot] = std::make_unique<TeamDataFields>(int(slot));
    return team_data_[slot].get();
  }
  // The team (2 or 3) of slot i now, or 0 when it is not a player's.
  int64_t TeamOf(const Entity* res, int i) {
    const int64_t team = match::ReadInt(player(i).team, res).value_or(0);
    return team == kTeamRadiant || team == kTeamDire ? team : 0;
  }
  // Each slot's player controller now (null where none).
  using Controllers = const Entity* [kMaxPlayers];
  void MapControllers(MatchContext& ctx, const Entity* res, Controllers& out);
  const Entity* HeroOf(MatchContext& ctx, const Entity* res, int i, const Entity* controller);
  // The slot of the player whose hero is `hero` / whose hero is named
  // `name`; -1 when none.
  int SlotOfHero(MatchContext& ctx, const Entity* hero);
  int SlotOfHeroName(MatchContext& ctx, std::string_view name);
  int SlotOfOwner(MatchContext& ctx, std::optional<int64_t> owner_handle);
  void Record(MatchContext& ctx, const Entity* res, int i, const Entity* controller,
              const Entity* hero);

  std::vector<int8_t> kinds_;  // by class id; -1 not looked at yet
  int32_t resource_ = -1, radiant_ = -1, dire_ = -1, rules_ = -1;
  std::set<int32_t> controllers_;  // entity indexes
  std::unique_ptr<PlayerFields> players_[kMaxPlayers];
  std::unique_ptr<TeamDataFields> team_data_[kMaxPlayers];
  std::map<int32_t, PlayerRow> book_;  // every player seen, by slot
  match::BodyColumns body_{128.0f, "CBodyComponent.m_angRotation"};
  FieldReader max_health_{"m_iMaxHealth"};
  FieldReader mana_{"m_flMana"}, max_mana_{"m_flMaxMana"}, level_{"m_iCurrentLevel"};
  FieldReader team_num_{"m_iTeamNum"};
  FieldReader controller_id_{"m_nPlayerID", "m_iPlayerID"};
  FieldReader assigned_hero_{"m_hAssignedHero"};
  FieldReader controller_name_{"m_iszPlayerName"}, controller_steam_{"m_steamID"};
  FieldReader game_start_{"m_pGameRules.m_flGameStartTime"};
  FieldReader game_state_{"m_pGameRules.m_nGameState"};
  FieldReader transition_{"m_pGameRules.m_flStateTransitionTime"};
  FieldReader game_time_field_{"m_pGameRules.m_fGameTime"};
  match::PauseClock pause_clock_;
  WardTracker wards_{&body_.position()};
  std::optional<double> end_game_time_;
};

Module::Kind Module::KindOf(MatchContext& ctx, int32_t class_id) {
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

void Module::OnEntityCreated(MatchContext& ctx, const Entity& e) {
  switch (KindOf(ctx, e.class_id)) {
    case kResource: resource_ = e.index; break;
    case kRadiantData: radiant_ = e.index; break;
    case kDireData: dire_ = e.index; break;
    case kRules: rules_ = e.index; break;
    case kController: controllers_.insert(e.index); break;
    case kOther:
      if (wards_.IsWard(ctx, e.class_id)) {
        wards_.OnCreated(ctx, e, SlotOfOwner(ctx, wards_.OwnerHandle(e)));
      }
      break;
  }
}

void Module::OnEntityDeleted(MatchContext& ctx, const Entity& e) {
  if (KindOf(ctx, e.class_id) == kController) controllers_.erase(e.index);
  wards_.OnDeleted(ctx, e);
}

const Entity* Module::HeroOf(MatchContext& ctx, const Entity* res, int i,
                             const Entity* controller) {
  if (const Entity* hero = ctx.ByHandle(match::ReadInt(player(i).hero, res))) return hero;
  return controller == nullptr ? nullptr
                               : ctx.ByHandle(match::ReadInt(assigned_hero_, controller));
}

void Module::MapControllers(MatchContext& ctx, const Entity* res, Controllers& out) {
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

int Module::SlotOfHero(MatchContext& ctx, const Entity* hero) {
  const Entity* res = resource(ctx);
  if (hero == nullptr || res == nullptr) return -1;
  Controllers controllers;
  MapControllers(ctx, res, controllers);
  for (int i = 0; i < kMaxPlayers; ++i) {
    if (TeamOf(res, i) != 0 && HeroOf(ctx, res, i, controllers[i]) == hero) return i;
  }
  return -1;
}

int Module::SlotOfHeroName(MatchContext& ctx, std::string_view name) {
  const Entity* res = resource(ctx);
  if (name.empty() || res == nullptr) return -1;
  Controllers controllers;
  MapControllers(ctx, res, controllers);
  for (int i = 0; i < kMaxPlayers; ++i) {
    if (TeamOf(res, i) == 0) continue;
    const Entity* hero = HeroOf(ctx, res, i, controllers[i]);
    if (hero != nullptr && ctx.EntityName(*hero) == name) return i;
  }
  return -1;
}

int Module::SlotOfOwner(MatchContext& ctx, std::optional<int64_t> owner_handle) {
  const Entity* owner = ctx.ByHandle(owner_handle);
  const Entity* res = resource(ctx);
  if (owner == nullptr || res == nullptr) return -1;
  if (KindOf(ctx, owner->class_id) == kController) {
    Controllers controllers;
    MapControllers(ctx, res, controllers);
    for (int i = 0; i < kMaxPlayers; ++i) {
      if (controllers[i] == owner) return i;
    }
    return -1;
  }
  return SlotOfHero(ctx, owner);
}

std::optional<double> Module::GameTime(MatchContext& ctx, int64_t tick) {
  const Entity* rules = Singleton(ctx, rules_, kRules);
  if (rules == nullptr) return std::nullopt;
  double origin;
  const std::optional<double> start = match::ReadReal(game_start_, rules);
  if (start && *start != 0) {
    origin = *start;
  } else if (match::ReadInt(game_state_, rules) == kStatePreGame &&
             match::ReadReal(transition_, rules)) {
    origin = *match::ReadReal(transition_, rules);
  } else {
    return std::nullopt;
  }
  // Builds that network the game time say it themselves.
  if (std::optional<double> t = match::ReadReal(game_time_field_, rules)) return *t - origin;
  return pause_clock_.GameSeconds(rules, ctx.ServerTickAt(tick), ctx.tick_interval()) - origin;
}

void Module::Record(MatchContext& ctx, const Entity* res, int i, const Entity* controller,
                    const Entity* hero) {
  PlayerRow& p = book_[i];
  PlayerFields& f = player(i);
  p.slot = i;
  p.player_id = MatchValue::Int(i);
  p.team = MatchValue::Int(TeamOf(res, i));
  // Controllers carry the names of bots too; the player resource only of
  // people.
  Value name = controller ? controller_name_.Read(*controller) : Value();
  if (name.kind != ValueKind::kString || name.s.empty()) name = f.name.Read(*res);
  if (name.kind == ValueKind::kString && !name.s.empty()) p.name.assign(name.s);
  std::optional<int64_t> steam = match::ReadInt(controller_steam_, controller);
  if (!steam || *steam == 0) steam = match::ReadInt(f.steam_id, res);
  if (steam && *steam != 0) p.steam_id = static_cast<uint64_t>(*steam);
  if (controller != nullptr) p.controller = static_cast<int64_t>(controller->lifetime);
  if (hero != nullptr) {
    p.pawn = static_cast<int64_t>(hero->lifetime);
    const std::string_view hero_name = ctx.EntityName(*hero);
    if (!hero_name.empty()) p.hero.assign(hero_name);
  }
}

void Module::Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) {
  const Entity* res = resource(ctx);
  if (res == nullptr) return;
  Controllers controllers;
  MapControllers(ctx, res, controllers);
  for (int i = 0; i < kMaxPlayers; ++i) {
    const int64_t team = TeamOf(res, i);
    if (team == 0) continue;
    PlayerFields& f = player(i);
    const Entity* hero = HeroOf(ctx, res, i, controllers[i]);
    Record(ctx, res, i, controllers[i], hero);
    row[kTlSlot] = MatchValue::Int(i);
    body_.Fill(hero, row);
    row[kTlMaxHealth] = IntCell(match::ReadInt(max_health_, hero));
    row[kMana] = RealCell(match::ReadReal(mana_, hero));
    row[kMaxMana] = RealCell(match::ReadReal(max_mana_, hero));
    row[kLevel] = IntCell(match::ReadInt(level_, hero));
    const Entity* data = Singleton(ctx, team == kTeamRadiant ? radiant_ : dire_,
                                   team == kTeamRadiant ? kRadiantData : kDireData);
    TeamDataFields* d = team_data(match::ReadInt(f.team_slot, res).value_or(-1));
    if (d != nullptr && data != nullptr) {
      const std::optional<int64_t> reliable = match::ReadInt(d->reliable, data);
      const std::optional<int64_t> unreliable = match::ReadInt(d->unreliable, data);
      row[kGold] = reliable && unreliable ? MatchValue::Int(*reliable + *unreliable)
                                          : MatchValue();
      row[kXp] = IntCell(match::ReadInt(d->xp, data));
      row[kNetWorth] = IntCell(match::ReadInt(d->net_worth, data));
      row[kLastHits] = IntCell(match::ReadInt(d->last_hits, data));
      row[kDenies] = IntCell(match::ReadInt(d->denies, data));
    } else {
      row[kGold] = row[kXp] = row[kNetWorth] = row[kLastHits] = row[kDenies] = MatchValue();
    }
    row[kKills] = IntCell(match::ReadInt(f.kills, res));
    row[kDeaths] = IntCell(match::ReadInt(f.deaths, res));
    row[kAssists] = IntCell(match::ReadInt(f.assists, res));
    emit.Emit(row);
  }
}

void Module::OnCombatLog(MatchContext& ctx, const CombatLogEntry& c) {
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  if (e.type() == kCombatLogGameState && e.value() == kGameStatePostGame &&
      !end_game_time_) {
    end_game_time_ = GameTime(ctx, ctx.tick());
  }
  if (e.type() != kCombatLogDeath || !e.is_target_hero() || e.is_target_illusion()) return;
  const int victim = SlotOfHeroName(ctx, c.target_name);
  if (victim < 0) return;  // a hero no player has (a clone, a neutral)
  KillRow k;
  k.tick = ctx.tick();
  k.game_time = RealCell(GameTime(ctx, ctx.tick()));
  k.victim = victim;
  int killer = SlotOfHeroName(ctx, c.attacker_name);
  if (killer < 0) killer = SlotOfHeroName(ctx, c.damage_source_name);
  if (killer >= 0) k.killer = killer;
  for (int32_t id : e.assist_players()) k.assisters.push_back(id);
  k.weapon.assign(c.inflictor_name);
  const Entity* res = resource(ctx);
  Controllers controllers;
  if (res != nullptr) MapControllers(ctx, res, controllers);
  body_.position().Read(res ? HeroOf(ctx, res, victim, controllers[victim]) : nullptr, &k.x,
                        &k.y, &k.z);
  ctx.Kill(k);
}

void Module::Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) {
  if (const Entity* res = resource(ctx)) {
    Controllers controllers;
    MapControllers(ctx, res, controllers);
    for (int i = 0; i < kMaxPlayers; ++i) {
      if (TeamOf(res, i) != 0) Record(ctx, res, i, controllers[i], HeroOf(ctx, res, i, controllers[i]));
    }
  }
  wards_.Finish(ctx);
  out->match_id = meta.match_id;
  if (meta.game_mode != 0) out->game_mode = MatchValue::Int(meta.game_mode);
  if (meta.game_winner == kTeamRadiant || meta.game_winner == kTeamDire) {
    out->winner = MatchValue::Int(meta.game_winner);
    out->winner_name = meta.game_winner == kTeamRadiant ? "radiant" : "dire";
  }
  if (end_game_time_ && out->start_tick) out->duration_s = MatchValue::Real(*end_game_time_);
  for (auto& [slot, row] : book_) out->players.push_back(row);
  if (out->players.empty()) {
    out->note = resource_ < 0 ? "no players: the replay has no CDOTA_PlayerResource"
                              : "no players: no player resource slot is on Radiant or Dire";
  }
}

}  // namespace

std::unique_ptr<match::GameModule> NewMatchModule() { return std::make_unique<Module>(); }

}  // namespace gem::dota
