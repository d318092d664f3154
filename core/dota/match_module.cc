#include "core/dota/event_lists.h"
#include "core/dota/match_module.h"

#include <charconv>
#include <map>
#include <string>
#include <vector>

#include "core/dota/activity.h"
#include "core/dota/chat.h"
#include "core/dota/combat_log.h"
#include "core/dota/combat_log_table.h"
#include "core/dota/draft.h"
#include "core/dota/enum_names.h"
#include "core/dota/file_info.h"
#include "core/dota/game_rules.h"
#include "core/dota/match_events.h"
#include "core/dota/roster.h"
#include "core/dota/tables.h"
#include "core/dota/teamfights.h"
#include "core/dota/timeline_columns.h"
#include "core/dota/ward_tracker.h"
#include "core/match/body.h"
#include "core/match/field_codes.h"
#include "core/match/game_clock.h"
#include "core/match/held_entities.h"

namespace gem::dota {
namespace {

using match::FieldReader;
using match::GameModule;
using match::IntCell;
using match::MatchContext;
using match::RealCell;

constexpr int64_t kStatePreGame = 4;

enum ExtraColumn : size_t {
  kMana = kTimelineCommon, kMaxMana, kLevel, kXp, kGold, kEarnedGold, kNetWorth, kLastHits,
  kDenies, kKills, kDeaths, kAssists, kStuns, kCampsStacked, kCreepsStacked, kParticipation,
};

constexpr match::UserMessageSpec kUserMessages[] = {
    // The combat log tells of what the packet's entities did: after them.
    {kDotaUmCombatLogDataHltv, 10},
    {kDotaUmCombatLogBulkData, 0},
    {kDotaUmChatEvent, 0},
    {kDotaUmChatMessage, 0},
    // Orders, like the combat log, are filed with the packet's state.
    {kDotaUmSpectatorPlayerUnitOrders, 10},
};

// Valve's schema: HeroID_t is a boxed int32 (-1 for none).
constexpr TypeRule kTypeRules[] = {{"HeroID_t", DecodeOp::kSVar32}};

// The fields whose changes move an inventory or an ability list.
enum FieldKind : uint16_t {
  kItemPosition = 1, kAbilityPosition, kHeldName, kCharges, kLevelField, kLifeState
};

// A team data entity's fields of one team slot.
struct TeamDataFields {
  explicit TeamDataFields(int slot);
  FieldReader reliable, unreliable, xp, earned_gold, net_worth, last_hits, denies, stuns,
      camps_stacked, creeps_stacked;
};

std::string Indexed(int slot, const char* field) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "m_vecDataTeam.%04d.%s", slot, field);
  return buf;
}

TeamDataFields::TeamDataFields(int slot)
    : reliable(Indexed(slot, "m_iReliableGold")),
      unreliable(Indexed(slot, "m_iUnreliableGold")),
      xp(Indexed(slot, "m_iTotalEarnedXP")),
      earned_gold(Indexed(slot, "m_iTotalEarnedGold")),
      net_worth(Indexed(slot, "m_iNetWorth")),
      last_hits(Indexed(slot, "m_iLastHitCount")),
      denies(Indexed(slot, "m_iDenyCount")),
      stuns(Indexed(slot, "m_fStuns")),
      camps_stacked(Indexed(slot, "m_iCampsStacked")),
      creeps_stacked(Indexed(slot, "m_iCreepsStacked")) {}

// The build number inside a game directory such as ".../dota_v5361/...".
bool BuildFromGameDir(const std::string& dir, int32_t* build) {
  const size_t pos = dir.find("/dota_v");
  if (pos == std::string::npos) return false;
  const char* begin = dir.data() + pos + 7;
  const char* end = dir.data() + dir.size();
  int32_t value = 0;
  auto res = std::from_chars(begin, end, value);
  if (res.ec != std::errc() || res.ptr == begin || res.ptr == end || *res.ptr != '/') return false;
  *build = value;
  return true;
}

class Module : public GameModule {
 public:
  const GameSchema& schema() const override { return DotaSchema(); }
  std::span<const match::UserMessageSpec> user_messages() const override { return kUserMessages; }
  std::span<const TypeRule> type_rules() const override { return kTypeRules; }
  std::span<const KnownEventList> known_event_lists() const override {
    return KnownEventLists();
  }
  std::span<const MatchColumn> extra_columns() const override { return kTimelineColumns; }
  float cell_width() const override { return 128.0f; }

  void Start(MatchContext& ctx) override;
  Status OnUserMessage(MatchContext& ctx, uint32_t type, const uint8_t* data,
                       size_t size) override;
  Status OnGameInfo(MatchContext& ctx, const uint8_t* data, size_t size,
                    ReplayMetadata* meta) override;
  void OnGameEvent(MatchContext& ctx, const GameEvent& e) override {
    combat_log_.DecodeLegacy(e, ctx.tables().Find("CombatLogNames"),
                             [&](const CombatLogEntry& c) { OnCombatLog(ctx, c); });
  }
  void OnFrameEnd(MatchContext& ctx, ReplayMetadata* meta) override;
  void FinishMetadata(MatchContext& ctx, ReplayMetadata* meta) override;
  std::vector<std::pair<std::string, uint64_t>> Counters() const override;

  bool Watches(std::string_view name) const override {
    return name == "CDOTA_NPC_Observer_Ward" || name == "CDOTA_NPC_Observer_Ward_TrueSight" ||
           name == "CDOTA_PlayerResource" || name == "CDOTAPlayerController";
  }
  void OnEntityCreated(MatchContext& ctx, const Entity& e) override;
  void OnEntityUpdated(MatchContext& ctx, const Entity& e,
                       std::span<const FieldChange> changes) override;
  void OnEntityDeleted(MatchContext& ctx, const Entity& e) override;
  std::optional<double> ClockAt(MatchContext& ctx, int64_t tick) override;
  void Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) override;
  void Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) override;
  void PlayersSoFar(std::vector<PlayerRow>* out) const override {
    for (const auto& [slot, row] : book_) out->push_back(row);
  }

 private:
  // What an update of an entity of the class is read for (by class id).
  enum UpdateKind : int8_t { kUpdateWard, kUpdateRoster, kUpdateHeld };
  UpdateKind UpdateKindOf(MatchContext& ctx, const Entity& e);
  void OnCombatLog(MatchContext& ctx, const CombatLogEntry& c);
  void Kill(MatchContext& ctx, const CombatLogEntry& c);
  MatchValue Clock(MatchContext& ctx) { return RealCell(GameTime(ctx, ctx.tick())); }
  TeamDataFields* team_data(int64_t slot) {
    if (slot < 0 || slot >= kMaxPlayers) return nullptr;
    if (!team_data_[slot]) team_data_[slot] = std::make_unique<TeamDataFields>(int(slot));
    return team_data_[slot].get();
  }
  // Marks the inventories and ability lists of slots whose hero changed.
  void FollowHeroes(MatchContext& ctx);
  // The inventories' and ability lists' rows of what was marked.
  void ResolveHeld(MatchContext& ctx, const MatchValue& clock);
  void Record(MatchContext& ctx, const Entity* res, int i, const Roster::Slot& slot);

  std::vector<int8_t> update_kinds_;  // by class id; -1 not looked at yet
  CombatLogDecoder combat_log_;
  CombatLogRow combat_row_;
  CombatLogNameRows names_;
  ChatDecoder chat_;
  ChatMessage chat_message_;
  ChatEvent chat_event_;
  uint64_t chat_events_ = 0;
  uint64_t samples_out_of_view_ = 0;  // timeline rows of a hero out of view
  GameRules rules_;
  Roster roster_;
  std::unique_ptr<TeamDataFields> team_data_[kMaxPlayers];
  std::map<int32_t, PlayerRow> book_;  // every player seen, by slot
  match::BodyColumns body_{128.0f, "CBodyComponent.m_angRotation"};
  FieldReader max_health_{"m_iMaxHealth"};
  FieldReader mana_{"m_flMana"}, max_mana_{"m_flMaxMana"}, level_{"m_iCurrentLevel"};
  FieldReader controller_name_{"m_iszPlayerName"}, controller_steam_{"m_steamID"};
  FieldReader game_start_{"m_pGameRules.m_flGameStartTime"};
  FieldReader game_state_{"m_pGameRules.m_nGameState"};
  FieldReader transition_{"m_pGameRules.m_flStateTransitionTime"};
  FieldReader game_time_field_{"m_pGameRules.m_fGameTime"};
  match::PauseClock pause_clock_;
  WardTracker wards_{&body_.position()};
  MatchEvents events_{&roster_, &body_.position()};
  Teamfights teamfights_{&roster_};
  Draft draft_{&roster_};
  Activity activity_{&roster_};
  match::FieldCodes held_codes_{{{"m_hItems.#", kItemPosition},
                                 {"m_Inventory.m_hItems.#", kItemPosition},
                                 {"m_hAbilities.#", kAbilityPosition},
                                 {"m_vecAbilities.#", kAbilityPosition},
                                 {"m_pEntity.m_nameStringableIndex", kHeldName},
                                 {"m_pEntity.m_nameStringTableIndex", kHeldName},
                                 {"m_iCurrentCharges", kCharges},
                                 {"m_iLevel", kLevelField},
                                 {"m_lifeState", kLifeState}}};
  match::HeldEntities items_{&held_codes_, kItemPosition, {"m_iCurrentCharges"}, kInventory,
                             "inventory"};
  match::HeldEntities abilities_{&held_codes_, kAbilityPosition, {"m_iLevel"}, kAbilities,
                                 "abilities"};
  // The hero each slot had when last looked at (its lifetime; 0 none).
  uint64_t followed_[kMaxPlayers] = {};
  uint64_t followed_generation_ = ~uint64_t{0};
  std::optional<double> end_game_time_;
  int64_t game_end_tick_ = -1;
  std::optional<double> last_game_time_;
  int64_t last_tick_ = -1;
};

void Module::Start(MatchContext& ctx) {
  for (int i = proto::DOTA_COMBATLOG_TYPES_MIN; i <= proto::DOTA_COMBATLOG_TYPES_MAX; ++i) {
    if (!proto::DOTA_COMBATLOG_TYPES_IsValid(i)) continue;
    const std::string& name =
        proto::DOTA_COMBATLOG_TYPES_Name(static_cast<proto::DOTA_COMBATLOG_TYPES>(i));
    const MatchValue row[] = {MatchValue::Int(i), MatchValue::Text(name)};
    ctx.Row(kCombatLogTypes, row);
  }
  WriteEnumNames(ctx);
}

Status Module::OnUserMessage(MatchContext& ctx, uint32_t type, const uint8_t* data,
                             size_t size) {
  const StringTable* names = ctx.tables().Find("CombatLogNames");
  auto emit = [&](const CombatLogEntry& c) { OnCombatLog(ctx, c); };
  switch (type) {
    case kDotaUmCombatLogDataHltv:
      return combat_log_.DecodeHltv(data, size, names, emit);
    case kDotaUmCombatLogBulkData:
      return combat_log_.DecodeBulk(data, size, names, emit);
    case kDotaUmChatMessage:
      GEM_RETURN_IF_ERROR(chat_.DecodeChatMessage(data, size, &chat_message_));
      ctx.Chat(chat_message_);
      return Status::Ok();
    case kDotaUmChatEvent:
      GEM_RETURN_IF_ERROR(chat_.DecodeChatEvent(data, size, &chat_event_));
      ++chat_events_;
      if (ctx.has_sink()) ctx.Row(kChatEvents, chat_.EventRow(ctx.tick(), chat_event_));
      if (ctx.match_layer()) events_.OnChatEvent(chat_event_);
      activity_.OnChatEvent(ctx, chat_event_);
      return Status::Ok();
    case kDotaUmSpectatorPlayerUnitOrders:
      return activity_.OnUnitOrders(ctx, data, size, [&] { return Clock(ctx); });
    default:
      return Status::Ok();
  }
}

Status Module::OnGameInfo(MatchContext& ctx, const uint8_t* data, size_t size,
                          ReplayMetadata* meta) {
  std::vector<FileInfoPick> picks;
  GEM_RETURN_IF_ERROR(ReadGameInfo(ctx, data, size, meta, &picks));
  draft_.SetFileInfo(std::move(picks));
  return Status::Ok();
}

void Module::OnCombatLog(MatchContext& ctx, const CombatLogEntry& c) {
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  if (e.type() == kCombatLogGameState && e.value() == kGameStatePostGame) {
    if (game_end_tick_ < 0) game_end_tick_ = ctx.frame().tick;
    if (!end_game_time_) end_game_time_ = GameTime(ctx, ctx.tick());
  }
  if (ctx.has_sink()) ctx.Row(kCombatLogEntries, combat_row_.Build(ctx.tick(), c));
  if (!ctx.match_layer()) return;
  activity_.OnCombatLog(ctx, c, [&] { return Clock(ctx); });
  switch (e.type()) {
    case kCombatLogPurchase:
    case kCombatLogBuyback:
      events_.OnCombatLog(ctx, c, Clock(ctx));
      break;
    case kCombatLogDeath:
      events_.OnCombatLog(ctx, c, Clock(ctx));
      wards_.OnDeath(c.target_name, c.damage_source_name);
      Kill(ctx, c);
      break;
    default:
      teamfights_.OnCombatLog(ctx, c);
      break;
  }
}

void Module::Kill(MatchContext& ctx, const CombatLogEntry& c) {
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  if (!e.is_target_hero() || e.is_target_illusion()) return;
  // A hero that will reincarnate (the aegis, Wraith King) has not died:
  // the player resource counts no death.
  if (e.will_reincarnate()) return;
  const int victim = roster_.SlotOfHeroName(ctx, c.target_name);
  if (victim < 0) return;  // a hero no player has (a clone, a neutral)
  KillRow k;
  k.tick = ctx.tick();
  k.game_time = Clock(ctx);
  k.victim = victim;
  int killer = roster_.SlotOfHeroName(ctx, c.attacker_name);
  if (killer < 0) killer = roster_.SlotOfHeroName(ctx, c.damage_source_name);
  if (killer >= 0) k.killer = killer;
  for (int32_t id : e.assist_players()) k.assisters.push_back(id);
  k.weapon.assign(c.inflictor_name);
  body_.position().Read(roster_.heroes(ctx)[victim].hero, &k.x, &k.y, &k.z);
  ctx.Kill(k);
  teamfights_.OnDeath(k);
  activity_.OnKill(ctx, k);
}

void Module::OnEntityCreated(MatchContext& ctx, const Entity& e) {
  rules_.OnCreated(ctx, e);
  roster_.OnCreated(ctx, e);
  if (!ctx.match_layer()) return;
  if (wards_.IsWard(ctx, e.class_id)) {
    wards_.OnCreated(ctx, e, roster_.SlotOfOwner(ctx, wards_.OwnerHandle(e)), Clock(ctx));
  }
  events_.OnCreated(ctx, e);
  items_.OnCreated(e);
  abilities_.OnCreated(e);
}

Module::UpdateKind Module::UpdateKindOf(MatchContext& ctx, const Entity& e) {
  const size_t c = static_cast<size_t>(e.class_id);
  if (e.class_id < 0) return kUpdateHeld;
  if (c >= update_kinds_.size()) update_kinds_.resize(c + 1, -1);
  if (update_kinds_[c] < 0) {
    update_kinds_[c] = wards_.IsWard(ctx, e.class_id) ? kUpdateWard
                       : roster_.Follows(ctx, e)      ? kUpdateRoster
                                                      : kUpdateHeld;
  }
  return static_cast<UpdateKind>(update_kinds_[c]);
}

void Module::OnEntityUpdated(MatchContext& ctx, const Entity& e,
                             std::span<const FieldChange> changes) {
  switch (UpdateKindOf(ctx, e)) {
    case kUpdateWard:
      wards_.OnUpdated(ctx, e, changes, Clock(ctx));
      return;
    case kUpdateRoster:
      roster_.OnUpdated(ctx, e, changes);
      return;
    case kUpdateHeld:
      break;
  }
  // A hero (its item and ability arrays) or what one holds (its name,
  // charges, level): a code lookup a change, nothing more unless it hits.
  const std::span<const uint32_t> codes = held_codes_.Codes(e);
  int slot = -2;  // the slot whose hero `e` is, looked up once
  for (const FieldChange& c : changes) {
    const uint32_t code = c.field_id < codes.size() ? codes[c.field_id] : 0;
    if (code == 0) continue;
    const uint16_t index = match::FieldCodes::IndexOf(code);
    switch (match::FieldCodes::KindOf(code)) {
      case kItemPosition:
      case kAbilityPosition:
        if (slot == -2) slot = roster_.SlotOfHero(ctx, &e);
        if (match::FieldCodes::KindOf(code) == kItemPosition) {
          items_.MarkPosition(slot, index);
        } else {
          abilities_.MarkPosition(slot, index);
        }
        break;
      case kHeldName:
        items_.MarkHeld(e.index);
        abilities_.MarkHeld(e.index);
        break;
      case kCharges:
        items_.MarkHeld(e.index);
        break;
      case kLevelField:
        abilities_.MarkHeld(e.index);
        break;
      case kLifeState:
        if (slot == -2) slot = roster_.SlotOfHero(ctx, &e);
        if (slot >= 0) {
          activity_.OnLifeState(ctx, slot, match::AsInt(c.value).value_or(0),
                                [&] { return Clock(ctx); });
        }
        break;
      default:
        break;
    }
  }
}

void Module::OnEntityDeleted(MatchContext& ctx, const Entity& e) {
  roster_.OnDeleted(ctx, e);
  if (!ctx.match_layer()) return;
  if (wards_.IsWard(ctx, e.class_id)) wards_.OnDeleted(ctx, e, Clock(ctx));
  items_.OnDeleted(e);
  abilities_.OnDeleted(e);
}

void Module::FollowHeroes(MatchContext& ctx) {
  if (!roster_.stale() && roster_.generation() == followed_generation_) return;
  std::span<Roster::Slot> slots = roster_.heroes(ctx);
  followed_generation_ = roster_.generation();
  for (int s = 0; s < kMaxPlayers; ++s) {
    const uint64_t hero = slots[s].hero != nullptr ? slots[s].hero->lifetime : 0;
    if (hero == followed_[s]) continue;
    followed_[s] = hero;
    items_.MarkSlot(s);
    abilities_.MarkSlot(s);
    // Its changes of items and abilities matter now.
    if (slots[s].hero != nullptr) ctx.Watch(slots[s].hero->class_id);
  }
}

void Module::ResolveHeld(MatchContext& ctx, const MatchValue& clock) {
  if (!items_.pending() && !abilities_.pending()) return;
  const Entity* heroes[kMaxPlayers] = {};
  std::span<Roster::Slot> slots = roster_.heroes(ctx);
  for (int s = 0; s < kMaxPlayers; ++s) heroes[s] = slots[s].hero;
  items_.Resolve(ctx, heroes, clock);
  abilities_.Resolve(ctx, heroes, clock);
}

void Module::OnFrameEnd(MatchContext& ctx, ReplayMetadata* meta) {
  rules_.OnFrameEnd(ctx, meta);
  names_.OnFrameEnd(ctx);
  if (!ctx.match_layer()) return;
  FollowHeroes(ctx);
  wards_.OnFrameEnd(ctx);
  const Entity* rules = rules_.Get(ctx);
  activity_.OnFrameEnd(ctx, rules, [&] { return Clock(ctx); });
  teamfights_.OnFrameEnd(ctx, meta->first_tick, last_game_time_);
  const bool draft = draft_.Polls(rules);
  if (draft || items_.pending() || abilities_.pending() || events_.pending()) {
    const MatchValue clock = Clock(ctx);
    events_.OnFrameEnd(ctx, clock);
    if (draft) draft_.OnFrameEnd(ctx, rules, clock);
    ResolveHeld(ctx, clock);
  }
}

void Module::FinishMetadata(MatchContext& ctx, ReplayMetadata* meta) {
  rules_.Finish(ctx, meta);
  if (game_end_tick_ >= 0) meta->game_end_tick = game_end_tick_;
  int32_t build = 0;
  if (BuildFromGameDir(meta->server_game_dir, &build)) {
    meta->game_build = build;
    meta->game_build_from_header = false;
  }
}

std::vector<std::pair<std::string, uint64_t>> Module::Counters() const {
  std::vector<std::pair<std::string, uint64_t>> c = {
      {"combatlog_total", combat_log_.entries()},
      {"combat_log_unresolved_names", combat_log_.unresolved_names()},
      {"wards_ended_before_placed", wards_.ended_before_placed()},
      {"chat_events", chat_events_},
      {"timeline_out_of_view", samples_out_of_view_},
  };
  for (const auto& part : {events_.Counters(), items_.Counters(), abilities_.Counters(),
                           draft_.Counters(), activity_.Counters()}) {
    c.insert(c.end(), part.begin(), part.end());
  }
  return c;
}

std::optional<double> Module::ClockAt(MatchContext& ctx, int64_t tick) {
  const Entity* rules = rules_.Get(ctx);
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

void Module::Record(MatchContext& ctx, const Entity* res, int i, const Roster::Slot& slot) {
  PlayerRow& p = book_[i];
  PlayerFields& f = roster_.player(i);
  const Entity* controller = slot.controller;
  p.slot = i;
  p.player_id = MatchValue::Int(i);
  p.team = MatchValue::Int(roster_.TeamOf(res, i));
  // Controllers carry the names of bots too; the player resource only of
  // people.
  Value name = controller ? controller_name_.Read(*controller) : Value();
  if (name.kind != ValueKind::kString || name.s.empty()) name = f.name.Read(*res);
  if (name.kind == ValueKind::kString && !name.s.empty()) p.name.assign(name.s);
  std::optional<int64_t> steam = match::ReadInt(controller_steam_, controller);
  if (!steam || *steam == 0) steam = match::ReadInt(f.steam_id, res);
  if (steam && *steam != 0) p.steam_id = static_cast<uint64_t>(*steam);
  if (controller != nullptr) p.controller = static_cast<int64_t>(controller->lifetime);
  if (slot.hero != nullptr) {
    p.pawn = static_cast<int64_t>(slot.hero->lifetime);
    const std::string_view hero_name = ctx.EntityName(*slot.hero);
    if (!hero_name.empty()) p.hero.assign(hero_name);
  }
}

void Module::Sample(MatchContext& ctx, std::span<MatchValue> row, RowSink& emit) {
  const Entity* res = roster_.resource(ctx);
  if (res == nullptr) return;
  std::span<Roster::Slot> slots = roster_.heroes(ctx);
  last_tick_ = row[kTlTick].i;
  last_game_time_ = row[kTlGameTime].is_null() ? std::nullopt
                                                : std::optional<double>(row[kTlGameTime].r);
  for (int i = 0; i < kMaxPlayers; ++i) {
    const int64_t team = roster_.TeamOf(res, i);
    if (team == 0) continue;
    PlayerFields& f = roster_.player(i);
    const Entity* hero = match::InView(slots[i].hero);
    if (hero != slots[i].hero) ++samples_out_of_view_;
    Record(ctx, res, i, slots[i]);
    row[kTlSlot] = MatchValue::Int(i);
    body_.Fill(hero, row);
    if (hero != slots[i].hero) {  // out of view: which entity it is is known
      row[kTlEntity] = MatchValue::Int(static_cast<int64_t>(slots[i].hero->lifetime));
    }
    row[kTlMaxHealth] = IntCell(match::ReadInt(max_health_, hero));
    row[kMana] = RealCell(match::ReadReal(mana_, hero));
    row[kMaxMana] = RealCell(match::ReadReal(max_mana_, hero));
    row[kLevel] = IntCell(match::ReadInt(level_, hero));
    const Entity* data = roster_.team_data(ctx, team);
    TeamDataFields* d = team_data(match::ReadInt(f.team_slot, res).value_or(-1));
    if (d != nullptr && data != nullptr) {
      const std::optional<int64_t> reliable = match::ReadInt(d->reliable, data);
      const std::optional<int64_t> unreliable = match::ReadInt(d->unreliable, data);
      row[kGold] = reliable && unreliable ? MatchValue::Int(*reliable + *unreliable)
                                          : MatchValue();
      row[kXp] = IntCell(match::ReadInt(d->xp, data));
      row[kEarnedGold] = IntCell(match::ReadInt(d->earned_gold, data));
      row[kNetWorth] = IntCell(match::ReadInt(d->net_worth, data));
      row[kLastHits] = IntCell(match::ReadInt(d->last_hits, data));
      row[kDenies] = IntCell(match::ReadInt(d->denies, data));
      row[kStuns] = RealCell(match::ReadReal(d->stuns, data));
      row[kCampsStacked] = IntCell(match::ReadInt(d->camps_stacked, data));
      row[kCreepsStacked] = IntCell(match::ReadInt(d->creeps_stacked, data));
    } else {
      for (size_t c : {kGold, kXp, kEarnedGold, kNetWorth, kLastHits, kDenies, kStuns,
                       kCampsStacked, kCreepsStacked}) {
        row[c] = MatchValue();
      }
    }
    row[kKills] = IntCell(match::ReadInt(f.kills, res));
    row[kDeaths] = IntCell(match::ReadInt(f.deaths, res));
    row[kAssists] = IntCell(match::ReadInt(f.assists, res));
    row[kParticipation] = RealCell(match::ReadReal(f.teamfight_participation, res));
    emit.Emit(row);
    activity_.OnSample(ctx, i, row);
  }
  teamfights_.OnSample(ctx, last_tick_, last_game_time_);
}

void Module::Finish(MatchContext& ctx, const ReplayMetadata& meta, MatchSummary* out) {
  names_.Finish(ctx);
  if (!ctx.match_layer()) return;
  events_.OnFrameEnd(ctx, Clock(ctx));
  ResolveHeld(ctx, Clock(ctx));
  if (const Entity* res = roster_.resource(ctx)) {
    std::span<Roster::Slot> slots = roster_.heroes(ctx);
    for (int i = 0; i < kMaxPlayers; ++i) {
      if (roster_.TeamOf(res, i) != 0) Record(ctx, res, i, slots[i]);
    }
  }
  wards_.Finish(ctx);
  draft_.Finish(ctx);
  teamfights_.Finish(ctx, meta.first_tick, meta.last_tick, last_game_time_, out->start_tick);
  activity_.Finish(ctx, out->start_tick);
  out->match_id = meta.match_id;
  if (meta.game_mode != 0) out->game_mode = MatchValue::Int(meta.game_mode);
  if (meta.game_winner == kTeamRadiant || meta.game_winner == kTeamDire) {
    out->winner = MatchValue::Int(meta.game_winner);
    out->winner_name = meta.game_winner == kTeamRadiant ? "radiant" : "dire";
  }
  if (end_game_time_ && out->start_tick) out->duration_s = MatchValue::Real(*end_game_time_);
  for (auto& [slot, row] : book_) out->players.push_back(row);
  if (out->players.empty()) {
    out->note = roster_.resource(ctx) == nullptr
                    ? "no players: the replay has no CDOTA_PlayerResource"
                    : "no players: no player resource slot is on Radiant or Dire";
  }
}

}  // namespace

bool IsReplayOf(const ReplayHeader& h) {
  return h.game == "dota" || h.game_directory.find("/dota") != std::string::npos;
}

std::unique_ptr<match::GameModule> NewMatchModule() { return std::make_unique<Module>(); }

}  // namespace gem::dota
