#include "core/deadlock/match_messages.h"

#include <algorithm>

#include "core/deadlock/known_names.h"
#include "core/match/field_reader.h"

namespace gem::deadlock {
namespace {

using match::MatchContext;

// Before the packet's entities (see the header), as HeroKilled is read.
constexpr match::UserMessageSpec kSpecs[] = {
    {kMsgDamage, 0},           {kMsgMapPing, 0},           {kMsgAbilitiesChanged, 0},
    {kMsgChatWheel, 0},        {kMsgChatMsg, 0},           {kMsgHeroKilled, 0},
    {kMsgReturnIdol, 0},       {kMsgGameOver, 0},          {kMsgBossKilled, 0},
    {kMsgBossDamaged, 0},      {kMsgMidBossSpawned, 0},    {kMsgRejuvStatus, 0},
    {kMsgKillStreak, 0},       {kMsgPlayerRespawned, 0},   {kMsgFlexSlotUnlocked, 0},
    {kMsgItemPurchaseNotification, 0}, {kMsgImportantAbilityUsed, 0},
    {kMsgBannedHeroes, 0},       {kMsgPostMatchDetails, 0},
};

MatchValue Int32(std::optional<int32_t> v) { return v ? MatchValue::Int(*v) : MatchValue(); }
MatchValue Uint32(std::optional<uint32_t> v) { return v ? MatchValue::Int(*v) : MatchValue(); }
MatchValue Bool(std::optional<bool> v) { return v ? MatchValue::Int(*v ? 1 : 0) : MatchValue(); }
MatchValue Real(std::optional<double> v) { return v ? MatchValue::Real(*v) : MatchValue(); }
MatchValue Text(std::optional<std::string_view> v) {
  return v ? MatchValue::Text(*v) : MatchValue();
}
MatchValue Slot(int32_t slot) { return slot >= 0 ? MatchValue::Int(slot) : MatchValue(); }

// A vector field as x, y, z columns from `first`; NULL when absent.
void PutVector(const MessageFields& m, uint32_t field, std::vector<MatchValue>& row,
               size_t first) {
  double xyz[3];
  if (!m.Vector(field, xyz)) return;
  for (size_t axis = 0; axis < 3; ++axis) row[first + axis] = MatchValue::Real(xyz[axis]);
}

// CCitadelUserMsg_AbilitiesChanged.Change as current builds number it
// (EPurchased 0 ... ESwappedActivatedAbility 3, ELeveledUp 4, EFailure 5);
// the first published proto stopped at 3.
const char* const kChanges[] = {"bought", "upgraded", "sold", "swapped", "leveled_up", "failed"};

}  // namespace

std::span<const match::UserMessageSpec> MatchMessages::Specs() { return kSpecs; }

void MatchMessages::Count(std::string_view what) {
  for (auto& [name, n] : counters_) {
    if (name == what) {
      ++n;
      return;
    }
  }
  counters_.emplace_back(std::string(what), 1);
}

std::vector<std::pair<std::string, uint64_t>> MatchMessages::Counters() const {
  return counters_;
}

std::string_view MatchMessages::AbilityName(const MatchContext& ctx, uint32_t id) {
  auto it = names_.find(id);
  if (it != names_.end()) return it->second;
  const StringTable* names = ctx.tables().Find("EntityNames");
  if (names == nullptr || names->size() == names_seen_) return {};
  for (; names_seen_ < names->size(); ++names_seen_) {
    const std::string& name = names->entry(names_seen_).name;
    if (!name.empty()) names_.emplace(StringToken(name), name);
  }
  it = names_.find(id);
  if (it != names_.end()) return it->second;
  // No entity of the replay has had it yet: the table's (known_names.h).
  return KnownItemName(id);
}

const Entity* MatchMessages::ByIndex(MatchContext& ctx, std::optional<int32_t> index) {
  if (!index || *index < 0) return nullptr;
  return ctx.Get(*index);
}

const Entity* MatchMessages::ByHandle(MatchContext& ctx, std::optional<uint32_t> handle) {
  if (!handle || (*handle & match::kHandleIndexMask) == match::kHandleIndexMask) return nullptr;
  return ctx.ByHandle(static_cast<int64_t>(*handle));
}

int32_t MatchMessages::SlotOfHandle(MatchContext& ctx, MessageHost& host,
                                    std::optional<uint32_t> handle) {
  const Entity* e = ByHandle(ctx, handle);
  return e == nullptr ? -1 : host.SlotOfEntity(ctx, e->index);
}

MatchValue MatchMessages::ClassOf(MatchContext& ctx, const Entity* e) {
  if (e == nullptr) return MatchValue();
  const std::string_view name = ctx.ClassName(e->class_id);
  return name.empty() ? MatchValue() : MatchValue::Text(name);
}

MatchValue MatchMessages::ItemName(MatchContext& ctx, std::optional<uint32_t> id) {
  if (!id || *id == 0) return MatchValue();
  const std::string_view name = AbilityName(ctx, *id);
  if (name.empty()) {
    Count("unknown_ability_ids");
    return MatchValue();
  }
  return MatchValue::Text(name);
}

void MatchMessages::Emit(MatchContext& ctx, uint32_t table, size_t columns) {
  row_.resize(columns);
  ctx.Row(table, std::span<const MatchValue>(row_.data(), columns));
}

void MatchMessages::OnMessage(MatchContext& ctx, MessageHost& host, uint32_t type,
                              const uint8_t* data, size_t size) {
  if (!ctx.has_sink()) return;
  if (!m_.Parse(data, size)) {
    Count("damaged_user_messages");
    return;
  }
  // Every row starts cleared, with the tick and clock.
  row_.assign(kDamageColumns, MatchValue());  // the widest table
  row_[kTick] = MatchValue::Int(ctx.tick());
  row_[kGameTime] = host.Clock(ctx);
  switch (type) {
    case kMsgDamage:
      Damage(ctx, host);
      break;
    case kMsgBossDamaged:
      Objective(ctx, host, false);
      break;
    case kMsgBossKilled:
      Objective(ctx, host, true);
      break;
    case kMsgMapPing:
      Ping(ctx, host, false);
      break;
    case kMsgChatWheel:
      Ping(ctx, host, true);
      break;
    case kMsgKillStreak: {
      const int32_t slot = SlotOfHandle(ctx, host, m_.Uint32(1));
      if (slot < 0) Count("kill_streaks_without_player");
      row_[kStreakSlot] = Slot(slot);
      row_[kStreakKills] = Int32(m_.Int32(2));
      row_[kStreakFirstBlood] = MatchValue::Int(m_.Bool(3).value_or(false));
      row_[kStreakEnded] = MatchValue::Int(m_.Bool(4).value_or(false));
      row_[kStreakDuration] = Real(m_.Real(5));
      Emit(ctx, kKillStreaks, kStreakColumns);
      break;
    }
    case kMsgPlayerRespawned: {
      const int32_t slot = SlotOfHandle(ctx, host, m_.Uint32(1));
      if (slot < 0) Count("respawns_without_player");
      row_[kRespawnSlot] = Slot(slot);
      row_[kRespawnYaw] = Real(m_.Real(2));
      Emit(ctx, kRespawns, kRespawnColumns);
      break;
    }
    case kMsgMidBossSpawned:
      row_[kMidKind] = MatchValue::Text("spawned");
      Emit(ctx, kMidBoss, kMidBossColumns);
      break;
    case kMsgRejuvStatus:
      row_[kMidKind] = MatchValue::Text("rejuv");
      row_[kMidTeam] = Int32(m_.Int32(1));
      row_[kMidSlot] = Slot(SlotOfHandle(ctx, host, m_.Uint32(2)));
      row_[kMidUserTeam] = Int32(m_.Int32(3));
      row_[kMidEventType] = Int32(m_.Int32(4));
      Emit(ctx, kMidBoss, kMidBossColumns);
      break;
    case kMsgAbilitiesChanged: {
      const std::optional<int32_t> change = m_.Int32(3);
      std::string number;
      row_[kBuySlot] = Int32(m_.Int32(1));
      row_[kBuyItem] = ItemName(ctx, m_.Uint32(2));
      row_[kBuyAbilityId] = Uint32(m_.Uint32(2));
      if (change && *change >= 0 && *change < 6) {
        row_[kBuyChange] = MatchValue::Text(kChanges[*change]);
      } else if (change) {
        number = std::to_string(*change);
        row_[kBuyChange] = MatchValue::Text(number);
      }
      if (change == 0 && row_[kBuySlot].kind == MatchValue::Kind::kInt &&
          row_[kBuySlot].i >= 0 && row_[kBuyItem].kind == MatchValue::Kind::kText) {
        bought_.emplace_back(static_cast<int>(row_[kBuySlot].i), std::string(row_[kBuyItem].s));
      }
      Emit(ctx, kPurchases, kPurchaseColumns);
      break;
    }
    case kMsgItemPurchaseNotification:
      row_[kNoteSlot] = Int32(m_.Int32(1));
      row_[kNoteItem] = ItemName(ctx, m_.Uint32(2));
      row_[kNoteAbilityId] = Uint32(m_.Uint32(2));
      row_[kNoteSold] = MatchValue::Int(m_.Bool(3).value_or(false));
      row_[kNoteQuickbuy] = MatchValue::Int(m_.Bool(4).value_or(false));
      Emit(ctx, kPurchaseNotifications, kNotificationColumns);
      break;
    case kMsgImportantAbilityUsed: {
      int32_t slot = SlotOfHandle(ctx, host, m_.Uint32(1));
      const Entity* caster = ByHandle(ctx, m_.Uint32(2));
      if (slot < 0 && caster != nullptr) slot = host.SlotOfEntity(ctx, caster->index);
      row_[kCastSlot] = Slot(slot);
      row_[kCastEntity] = caster ? MatchValue::Int(caster->index) : MatchValue();
      row_[kCastClass] = ClassOf(ctx, caster);
      row_[kCastAbility] = Text(m_.Bytes(3));
      Emit(ctx, kAbilityCasts, kCastColumns);
      break;
    }
    case kMsgReturnIdol:
      row_[kIdolLocation] = Int32(m_.Int32(1));
      row_[kIdolEnabled] = Bool(m_.Bool(3));
      PutVector(m_, 2, row_, kIdolX);
      Emit(ctx, kIdolReturns, kIdolColumns);
      break;
    case kMsgFlexSlotUnlocked:
      row_[kFlexTeam] = Int32(m_.Int32(1));
      row_[kFlexSlot] = Int32(m_.Int32(2));
      Emit(ctx, kFlexSlots, kFlexColumns);
      break;
    case kMsgBannedHeroes:
      Bans(ctx, data, size);
      break;
    case kMsgChatMsg: {
      ChatMessage chat;
      chat.kind = "chat";
      chat.sender = m_.Int32(1).value_or(-1);
      chat.channel = m_.Bool(3).value_or(false) ? 1 : 0;
      chat.text = m_.Bytes(2).value_or(std::string_view());
      ctx.Chat(chat);
      break;
    }
    case kMsgGameOver:
      if (!m_.Bool(2).value_or(false) && m_.Int32(1)) winner_ = *m_.Int32(1);
      break;
    default:
      break;
  }
}

void MatchMessages::Damage(MatchContext& ctx, MessageHost& host) {
  const Entity* attacker = ByIndex(ctx, m_.Int32(8));
  const Entity* victim = ByIndex(ctx, m_.Int32(6));
  const Entity* inflictor = ByIndex(ctx, m_.Int32(7));
  const Entity* ability = ByIndex(ctx, m_.Int32(9));
  if (victim == nullptr) Count("damage_without_victim");
  auto entity = [](std::optional<int32_t> index) {
    return index && *index >= 0 ? MatchValue::Int(*index) : MatchValue();
  };
  const int32_t attacker_slot = attacker ? host.SlotOfEntity(ctx, attacker->index) : -1;
  const int32_t victim_slot = victim ? host.SlotOfEntity(ctx, victim->index) : -1;
  row_[kDmgAttacker] = Slot(attacker_slot);
  row_[kDmgVictim] = Slot(victim_slot);
  row_[kDmgAttackerEntity] = entity(m_.Int32(8));
  row_[kDmgVictimEntity] = entity(m_.Int32(6));
  row_[kDmgInflictorEntity] = entity(m_.Int32(7));
  row_[kDmgAttackerClass] = ClassOf(ctx, attacker);
  row_[kDmgVictimClass] = ClassOf(ctx, victim);
  row_[kDmgInflictorClass] = ClassOf(ctx, inflictor);
  const std::string_view ability_name = ability ? ctx.EntityName(*ability) : std::string_view();
  row_[kDmgAbility] =
      !ability_name.empty() ? MatchValue::Text(ability_name) : ItemName(ctx, m_.Uint32(14));
  row_[kDmgAbilityId] = Uint32(m_.Uint32(14));
  row_[kDmgDamage] = Int32(m_.Int32(1));
  // Floats since pre_damage and damage_absorbed moved to 27 and 28.
  row_[kDmgPreDamage] = Real(m_.Has(27) ? m_.Real(27) : m_.Real(2));
  row_[kDmgAbsorbed] = Real(m_.Has(28) ? m_.Real(28) : m_.Real(10));
  row_[kDmgCrit] = Real(m_.Real(26));
  row_[kDmgHealthLost] = Int32(m_.Int32(20));
  row_[kDmgHealthAfter] = Int32(m_.Int32(12));
  row_[kDmgHealthMax] = Int32(m_.Int32(11));
  row_[kDmgShieldAfter] = Int32(m_.Int32(18));
  row_[kDmgShieldMax] = Int32(m_.Int32(17));
  row_[kDmgHits] = Int32(m_.Int32(19));
  row_[kDmgHitgroup] = Int32(m_.Int32(21));
  row_[kDmgType] = Int32(m_.Int32(3));
  row_[kDmgCitadelType] = Int32(m_.Int32(4));
  const std::optional<uint64_t> flags = m_.Uint64(13);
  row_[kDmgFlags] = flags ? MatchValue::Int(static_cast<int64_t>(*flags)) : MatchValue();
  row_[kDmgSecondary] = Bool(m_.Bool(24));
  row_[kDmgEffectiveness] = Real(m_.Real(25));
  row_[kDmgServerTick] = Int32(m_.Int32(29));
  PutVector(m_, 5, row_, kDmgX);
  if (attacker_slot >= 0 && victim_slot >= 0) {
    host.OnPlayerDamage(ctx, attacker_slot, victim_slot, row_[kDmgDamage]);
  }
  Emit(ctx, kDamage, kDamageColumns);
}

void MatchMessages::Objective(MatchContext& ctx, MessageHost& host, bool killed) {
  const Entity* e = ByHandle(ctx, m_.Uint32(3));
  if (e == nullptr) Count(killed ? "boss_killed_without_entity" : "boss_damaged_without_entity");
  // The mid boss is no team objective (the post-match record lists it
  // apart): its kill is a mid_boss row too, below.
  const bool mid_boss = e != nullptr && ctx.ClassName(e->class_id) == "CNPC_MidBoss";
  if (killed && !mid_boss) ++objectives_killed_;
  row_[kObjKind] = MatchValue::Text(killed ? "killed" : "damaged");
  const std::optional<uint32_t> handle = m_.Uint32(3);
  if (e != nullptr) {
    row_[kObjEntity] = MatchValue::Int(e->index);
  } else if (handle && (*handle & match::kHandleIndexMask) != match::kHandleIndexMask) {
    row_[kObjEntity] = MatchValue::Int(*handle & match::kHandleIndexMask);
  }
  row_[kObjClass] = ClassOf(ctx, e);
  const std::string_view name = e ? ctx.EntityName(*e) : std::string_view();
  if (!name.empty()) row_[kObjName] = MatchValue::Text(name);
  row_[kObjTeam] = Int32(m_.Int32(1));
  if (e != nullptr) row_[kObjLane] = match::IntCell(match::ReadInt(lane_, e));
  if (killed) {
    row_[kObjMaskChange] = Int32(m_.Int32(2));
    const Entity* killer = ByHandle(ctx, m_.Uint32(5));
    row_[kObjKiller] = Slot(killer ? host.SlotOfEntity(ctx, killer->index) : -1);
    row_[kObjKillerEntity] = killer ? MatchValue::Int(killer->index) : MatchValue();
    row_[kObjKillerClass] = ClassOf(ctx, killer);
    row_[kObjRemaining] = Int32(m_.Int32(7));
    row_[kObjMessageTime] = Real(m_.Real(6));
    PutVector(m_, 8, row_, kObjX);
  } else {
    row_[kObjId] = Int32(m_.Int32(2));
  }
  Emit(ctx, kObjectiveEvents, kObjectiveColumns);
  if (killed && mid_boss) {
    // Killed by a team: the killer's, and its player.
    const Entity* killer = ByHandle(ctx, m_.Uint32(5));
    const MatchValue slot = row_[kObjKiller];
    row_.assign(kMidBossColumns, MatchValue());
    row_[kTick] = MatchValue::Int(ctx.tick());
    row_[kGameTime] = host.Clock(ctx);
    row_[kMidKind] = MatchValue::Text("killed");
    row_[kMidTeam] = killer ? match::IntCell(match::ReadInt(team_, killer)) : MatchValue();
    row_[kMidSlot] = slot;
    Emit(ctx, kMidBoss, kMidBossColumns);
  }
}

void MatchMessages::Ping(MatchContext& ctx, MessageHost& host, bool wheel) {
  row_[kPingKind] = MatchValue::Text(wheel ? "wheel" : "map");
  if (wheel) {
    row_[kPingSlot] = Int32(m_.Int32(2));
    row_[kPingMessageId] = Uint32(m_.Uint32(1));
    const Entity* pawn = ByIndex(ctx, m_.Int32(3));
    row_[kPingEntity] = pawn ? MatchValue::Int(pawn->index) : MatchValue();
    row_[kPingEntityClass] = ClassOf(ctx, pawn);
    row_[kPingParam] = Text(m_.Bytes(6));
    row_[kPingLaneColor] = Int32(m_.Int32(7));
    Emit(ctx, kPings, kPingColumns);
    return;
  }
  row_[kPingEnemy] = Bool(m_.Bool(4));
  row_[kPingMinimap] = Bool(m_.Bool(6));
  row_[kPingBlind] = Bool(m_.Bool(8));
  row_[kPingHero] = Text(m_.Bytes(7));
  const std::optional<std::string_view> common = m_.Bytes(1);
  MessageFields d;
  if (common && d.Parse(reinterpret_cast<const uint8_t*>(common->data()), common->size())) {
    row_[kPingSlot] = Int32(d.Int32(4));
    row_[kPingMessageId] = Uint32(d.Uint32(1));
    // An entity index; Valve's default (0xFFFFFF) for none.
    std::optional<uint32_t> index = d.Uint32(3);
    if (index && *index > match::kHandleIndexMask) index.reset();
    const Entity* e = index ? ctx.Get(static_cast<int32_t>(*index)) : nullptr;
    if (index) row_[kPingEntity] = MatchValue::Int(*index);
    row_[kPingEntityClass] = ClassOf(ctx, e);
    PutVector(d, 2, row_, kPingX);
  } else if (common) {
    Count("damaged_user_messages");
  }
  (void)host;
  Emit(ctx, kPings, kPingColumns);
}

void MatchMessages::Bans(MatchContext& ctx, const uint8_t* data, size_t size) {
  std::vector<int64_t> ids;
  if (!RepeatedVarints(data, size, 1, false, &ids)) {
    Count("damaged_user_messages");
    return;
  }
  for (int64_t id : ids) {
    banned_.push_back(id);
    row_.assign(kBanColumns, MatchValue());
    row_[kBanTick] = MatchValue::Int(ctx.tick());
    row_[kBanHeroId] = MatchValue::Int(id);
    Emit(ctx, kBannedHeroes, kBanColumns);
  }
}

}  // namespace gem::deadlock
