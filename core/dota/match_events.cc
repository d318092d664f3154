#include "core/dota/match_events.h"

#include "core/dota/tables.h"

namespace gem::dota {
namespace {

constexpr const char* kRuneNames[] = {
    "double_damage", "haste", "illusion", "invisibility", "regeneration",
    "bounty",        "arcane", "water",   "wisdom",       "shield",
};

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// The kind of building the combat log names, or null.
const char* BuildingKind(std::string_view name) {
  if (name.rfind("npc_dota_goodguys_", 0) != 0 && name.rfind("npc_dota_badguys_", 0) != 0) {
    return nullptr;
  }
  if (Contains(name, "_tower")) return "tower";
  if (Contains(name, "_rax_")) return "barracks";
  if (Contains(name, "_fort")) return "ancient";
  if (Contains(name, "_healers")) return "shrine";
  return nullptr;
}

MatchValue PlayerCell(int32_t id) {
  return id >= 0 && id < kMaxPlayers ? MatchValue::Int(id) : MatchValue();
}

}  // namespace

TableSpec PurchasesTable() {
  return EventTable(
      "purchases",
      "an item bought: every DOTA_COMBATLOG_PURCHASE entry. Recipes (item_recipe_*) are rows "
      "like any other, and so are the starting items (bought before the horn, game_time < 0): "
      "the combat log says they were bought",
      {{"slot", "INTEGER",
        "the buyer (players.slot): the player whose hero the entry's target names; NULL when it "
        "names no player's hero (counted in meta purchases_without_buyer)"},
       {"item", "TEXT",
        "the item bought, the entry's value resolved through CombatLogNames (item_blink, "
        "item_recipe_*); NULL when it names none (counted in meta purchases_without_item)"}});
}

TableSpec BuybacksTable() {
  return EventTable("buybacks", "a buyback: every DOTA_COMBATLOG_BUYBACK entry",
                    {{"slot", "INTEGER",
                      "the player who bought back (players.slot): the entry's value, a player "
                      "id; NULL when it is outside 0-23"}});
}

TableSpec ObjectivesTable() {
  return EventTable(
      "objectives",
      "an objective: a building's death (tower, barracks, ancient, shrine; a combat-log "
      "DOTA_COMBATLOG_DEATH of a unit named npc_dota_goodguys_* or npc_dota_badguys_*) or a "
      "chat event (Roshan killed, the aegis taken, stolen or denied, a Tormentor killed, first "
      "blood, a courier lost). Chat events' rows are written at the end of their frame, so every "
      "value is as of the row's tick. team is whose it was, by_team the team that took it: "
      "by_team <> team leaves out denies",
      {{"kind", "TEXT NOT NULL",
        "tower, barracks, ancient, shrine (by the building's name: _tower, _rax_, _fort, "
        "_healers), roshan (CHAT_MESSAGE_ROSHAN_KILL), aegis, aegis_stolen, aegis_denied "
        "(CHAT_MESSAGE_AEGIS, _AEGIS_STOLEN, _DENIED_AEGIS), tormentor (_MINIBOSS_KILL), "
        "first_blood (_FIRSTBLOOD) or courier (_COURIER_LOST)"},
       {"team", "INTEGER",
        "whose it was (2 Radiant, 3 Dire): a building's by its name (goodguys 2, badguys 3), "
        "first blood's the victim's team, a courier's the event's second player id; NULL for "
        "roshan, tormentor and the aegis"},
       {"by_team", "INTEGER",
        "the team that took it (2 Radiant, 3 Dire): a building's the entry's attacker_team, else "
        "the killer's team; roshan the event's first player id (as OpenDota reads it); tormentor "
        "the event's value; the aegis, first blood and a courier the team of `slot`; NULL when "
        "not one of the two"},
       {"slot", "INTEGER",
        "the player credited (players.slot): a building's killer (the player whose hero is the "
        "entry's damage source, else its attacker); the aegis' taker (stealer, denier), first "
        "blood's killer, a Tormentor's or a courier's killer (the event's first player id); "
        "NULL for roshan and when no player"},
       {"target", "TEXT",
        "what was taken, by the combat log's name: the building (npc_dota_goodguys_tower1_mid), "
        "npc_dota_roshan, npc_dota_miniboss, first blood's victim's hero (npc_dota_hero_axe); "
        "NULL for the aegis and a courier"},
       {"value", "INTEGER",
        "the chat event's value (a Tormentor's killing team; otherwise as the game fills it); "
        "NULL for a building"},
       {"x", "REAL",
        "where it happened, world coordinates: where the building, Roshan or the Tormentor "
        "stands (its entity's position then, or where it was created once the entity is gone), "
        "the aegis taker's hero, first blood's victim's hero; NULL for a courier or when no "
        "entity matches"},
       {"y", "REAL", "the y world coordinate, by x's rule"},
       {"z", "REAL", "the z world coordinate, by x's rule"}});
}

TableSpec RunesTable() {
  return EventTable(
      "runes",
      "a rune taken (CHAT_MESSAGE_RUNE_PICKUP) or put in a bottle (CHAT_MESSAGE_RUNE_BOTTLE): "
      "a bottled rune is its row when bottled; whether using it later sends another pickup is "
      "the game's to say",
      {{"slot", "INTEGER",
        "the player who took it (players.slot): the event's first player id; NULL when it is "
        "outside 0-23"},
       {"rune", "TEXT",
        "the rune's name by Valve's DOTA_RUNES numbering of rune_type: 0 double_damage, 1 haste, "
        "2 illusion, 3 invisibility, 4 regeneration, 5 bounty, 6 arcane, 7 water, 8 wisdom, "
        "9 shield; NULL for another number"},
       {"rune_type", "INTEGER", "the rune's number, the chat event's value (DOTA_RUNES)"},
       {"bottled", "INTEGER NOT NULL",
        "1 when put in a bottle (CHAT_MESSAGE_RUNE_BOTTLE), 0 when taken"}});
}

std::string_view RuneName(int64_t type) {
  return type >= 0 && type < static_cast<int64_t>(std::size(kRuneNames)) ? kRuneNames[type] : "";
}

MatchValue MatchEvents::TeamOfSlot(match::MatchContext& ctx, int64_t slot) {
  if (slot < 0 || slot >= kMaxPlayers) return MatchValue();
  const int64_t team = roster_->heroes(ctx)[slot].team;
  return team != 0 ? MatchValue::Int(team) : MatchValue();
}

void MatchEvents::HeroPosition(match::MatchContext& ctx, int64_t slot, Objective* o) {
  if (slot < 0 || slot >= kMaxPlayers) return;
  position_->Read(roster_->heroes(ctx)[slot].hero, &o->x, &o->y, &o->z);
}

void MatchEvents::Write(match::MatchContext& ctx, const Objective& o,
                        const MatchValue& game_time) {
  row_.assign({MatchValue::Int(ctx.tick()), game_time, MatchValue::Text(o.kind), o.team,
               o.by_team, o.slot, o.target, o.value, o.x, o.y, o.z});
  ctx.Row(kObjectives, row_);
}

void MatchEvents::OnCombatLog(match::MatchContext& ctx, const CombatLogEntry& c,
                              const MatchValue& game_time) {
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  const MatchValue tick = MatchValue::Int(ctx.tick());
  switch (e.type()) {
    case kCombatLogPurchase: {
      const int slot = roster_->SlotOfHeroName(ctx, c.target_name);
      if (slot < 0) ++purchases_without_buyer_;
      if (c.value_name.empty()) ++purchases_without_item_;
      row_.assign({tick, game_time, slot >= 0 ? MatchValue::Int(slot) : MatchValue(),
                   c.value_name.empty() ? MatchValue() : MatchValue::Text(c.value_name)});
      ctx.Row(kPurchases, row_);
      return;
    }
    case kCombatLogBuyback: {
      row_.assign({tick, game_time, PlayerCell(static_cast<int32_t>(e.value()))});
      ctx.Row(kBuybacks, row_);
      return;
    }
    case kCombatLogDeath: {
      const char* kind = BuildingKind(c.target_name);
      if (kind == nullptr) return;
      Objective o;
      o.kind = kind;
      o.team = MatchValue::Int(c.target_name.rfind("npc_dota_goodguys_", 0) == 0 ? kTeamRadiant
                                                                                  : kTeamDire);
      int killer = roster_->SlotOfHeroName(ctx, c.damage_source_name);
      if (killer < 0) killer = roster_->SlotOfHeroName(ctx, c.attacker_name);
      if (killer >= 0) o.slot = MatchValue::Int(killer);
      o.by_team = e.has_attacker_team() && (e.attacker_team() == kTeamRadiant ||
                                            e.attacker_team() == kTeamDire)
                      ? MatchValue::Int(e.attacker_team())
                      : TeamOfSlot(ctx, killer);
      o.target = MatchValue::Text(c.target_name);
      units_.Find(ctx, c.target_name, &o.x, &o.y, &o.z);
      Write(ctx, o, game_time);
      return;
    }
    default:
      return;
  }
}

void MatchEvents::OnFrameEnd(match::MatchContext& ctx, const MatchValue& game_time) {
  for (const ChatEvent& e : pending_) WriteChatEvent(ctx, e, game_time);
  pending_.clear();
}

void MatchEvents::WriteChatEvent(match::MatchContext& ctx, const ChatEvent& e,
                                 const MatchValue& game_time) {
  const int32_t p1 = e.player_ids[0], p2 = e.player_ids[1];
  Objective o;
  o.value = MatchValue::Int(e.value);
  switch (e.type) {
    case kChatRunePickup:
    case kChatRuneBottle: {
      const std::string_view rune = RuneName(e.value);
      row_.assign({MatchValue::Int(ctx.tick()), game_time, PlayerCell(p1),
                   rune.empty() ? MatchValue() : MatchValue::Text(rune), MatchValue::Int(e.value),
                   MatchValue::Int(e.type == kChatRuneBottle ? 1 : 0)});
      ctx.Row(kRunes, row_);
      return;
    }
    case kChatRoshanKill:
      o.kind = "roshan";
      if (p1 == kTeamRadiant || p1 == kTeamDire) o.by_team = MatchValue::Int(p1);
      o.target = MatchValue::Text("npc_dota_roshan");
      units_.Find(ctx, "npc_dota_roshan", &o.x, &o.y, &o.z);
      break;
    case kChatMinibossKill:
      o.kind = "tormentor";
      o.slot = PlayerCell(p1);
      if (e.value == kTeamRadiant || e.value == kTeamDire) o.by_team = MatchValue::Int(e.value);
      o.target = MatchValue::Text("npc_dota_miniboss");
      units_.Find(ctx, "npc_dota_miniboss", &o.x, &o.y, &o.z);
      break;
    case kChatAegis:
    case kChatAegisStolen:
    case kChatDeniedAegis:
      o.kind = e.type == kChatAegis ? "aegis" : e.type == kChatAegisStolen ? "aegis_stolen"
                                                                          : "aegis_denied";
      o.slot = PlayerCell(p1);
      o.by_team = TeamOfSlot(ctx, p1);
      HeroPosition(ctx, p1, &o);
      break;
    case kChatFirstBlood: {
      o.kind = "first_blood";
      o.slot = PlayerCell(p1);
      o.by_team = TeamOfSlot(ctx, p1);
      o.team = TeamOfSlot(ctx, p2);
      if (p2 >= 0 && p2 < kMaxPlayers) {
        const std::string& victim = roster_->heroes(ctx)[p2].hero_name;
        if (!victim.empty()) o.target = MatchValue::Text(victim);
      }
      HeroPosition(ctx, p2, &o);
      break;
    }
    case kChatCourierLost:
      o.kind = "courier";
      if (p2 == kTeamRadiant || p2 == kTeamDire) o.team = MatchValue::Int(p2);
      o.slot = PlayerCell(p1);
      o.by_team = TeamOfSlot(ctx, p1);
      break;
    default:
      return;
  }
  Write(ctx, o, game_time);
}

std::vector<std::pair<std::string, uint64_t>> MatchEvents::Counters() const {
  return {{"purchases_without_buyer", purchases_without_buyer_},
          {"purchases_without_item", purchases_without_item_}};
}

}  // namespace gem::dota
