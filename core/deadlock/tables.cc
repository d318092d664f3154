#include "core/deadlock/tables.h"

#include <initializer_list>
#include <string>
#include <utility>

#include "core/deadlock/lane_views.h"
#include "core/deadlock/match_views.h"
#include "core/deadlock/post_match.h"
#include "core/match/held_entities.h"

namespace gem::deadlock {
namespace {

using Cols = std::initializer_list<TableColumn>;

// The docs of every event table's tick and game_time.
constexpr char kMessageTick[] = "the index tick of the packet the message came in";
constexpr char kGameTime[] =
    "the match clock then, seconds (game time less pauses, from m_flGameStartTime); NULL while "
    "the game rules hold no start time";

// A table of `cols` alone.
TableSpec Plain(const char* name, const char* comment, Cols cols) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.columns.assign(cols.begin(), cols.end());
  return t;
}

// An event table: `id` first, then tick and game_time, then `cols`.
TableSpec Event(const char* name, const char* comment, Cols cols,
                const char* tick_doc = kMessageTick) {
  TableSpec t = Plain(name, comment, cols);
  t.auto_id = true;
  t.columns.insert(t.columns.begin(), {{"tick", "INTEGER NOT NULL", tick_doc},
                                       {"game_time", "REAL", kGameTime}});
  return t;
}

GameSchema Build() {
  GameSchema s;
  s.tables.resize(kTableCount);
  s.tables[kInventory] = match::HeldTableSpec(
      "inventory",
      "a change of one of a player's items: a position of the pawn's m_vecAbilities that holds "
      "an item (a CCitadel_Item_* entity) changes its item or charges, read at the end of the "
      "frame. No fixture holds an item, so how items appear is unchecked on real replays",
      {"the position in the pawn's m_vecAbilities, which holds items and abilities alike: a "
       "position holding an ability is empty here",
       "item",
       "the item's name: the held entity's EntityNames entry (upgrade_rapid_rounds); NULL too "
       "when it has none (meta: inventory_unnamed_entities) or the handle names no live entity "
       "(inventory_missing_entities)",
       "charges", "the item's m_iRemainingCharges then (NULL when its class has none)"});
  s.tables[kAbilities] = match::HeldTableSpec(
      "abilities",
      "a change of one of a player's abilities: a position of the pawn's m_vecAbilities that "
      "holds an ability (any entity but a CCitadel_Item_*) changes its ability or level, read at "
      "the end of the frame (ability_upgrades lists the rises)",
      {"the position in the pawn's m_vecAbilities, which holds abilities and items alike: a "
       "position holding an item is empty here",
       "ability",
       "the ability's name: the held entity's EntityNames entry (citadel_ability_dash); NULL too "
       "when it has none (meta: abilities_unnamed_entities) or the handle names no live entity "
       "(abilities_missing_entities)",
       "level",
       "the number of upgrade bits set in the ability's m_nUpgradeBits (m_nUpgradeInfo in later "
       "builds): the fixtures' unlocked abilities read 1; how bits count tiers no fixture checks"});
  s.tables[kDamage] = Event(
      "damage",
      "a CCitadelUserMessage_Damage user message: a hit, one row a message. Entities are the "
      "message's entity indexes, their classes and players as of before the message's packet; a "
      "field the message did not send is NULL, not 0. A message naming no live victim still "
      "gives its row (meta: damage_without_victim); one that does not parse gives none, as in "
      "every message table (meta: damaged_user_messages)",
      {{"attacker", "INTEGER",
        "the player (players.slot) whose pawn or controller entindex_attacker is; NULL for a unit"},
       {"victim", "INTEGER",
        "the player (players.slot) whose pawn or controller entindex_victim is; NULL for a unit"},
       {"attacker_entity", "INTEGER",
        "the message's entindex_attacker (field 8): the attacker's entity index; NULL when not "
        "sent or negative"},
       {"victim_entity", "INTEGER",
        "the message's entindex_victim (field 6): the victim's entity index; NULL when not sent "
        "or negative"},
       {"inflictor_entity", "INTEGER",
        "the message's entindex_inflictor (field 7): the entity that dealt it (a pawn, a "
        "projectile, an ability); NULL when not sent or negative"},
       {"attacker_class", "TEXT",
        "the class of the entity at attacker_entity then; NULL when none is live"},
       {"victim_class", "TEXT",
        "the class of the entity at victim_entity then (CNPC_Trooper, CCitadelPlayerPawn); NULL "
        "when none is live"},
       {"inflictor_class", "TEXT",
        "the class of the entity at inflictor_entity then; NULL when none is live"},
       {"ability", "TEXT",
        "the EntityNames name of the entity at entindex_ability (field 9), else the name of "
        "ability_id; NULL when neither names it (meta: unknown_ability_ids)"},
       {"ability_id", "INTEGER",
        "the message's ability_id (field 14): Valve's token of the ability's or item's name "
        "(MurmurHash2 of the lower-cased name, seed 0x31415926); NULL when not sent"},
       {"damage", "INTEGER", "the message's damage (field 1)"},
       {"pre_damage", "REAL",
        "the message's pre_damage: the float field 27, or in builds that send it instead the old "
        "int32 field 2"},
       {"absorbed", "REAL",
        "the message's damage_absorbed: the float field 28, or in builds that send it instead "
        "the old int32 field 10"},
       {"crit_damage", "REAL", "the message's crit_damage (field 26)"},
       {"health_lost", "INTEGER", "the message's health_lost (field 20): the victim's health lost"},
       {"health_after", "INTEGER",
        "the message's victim_health_new (field 12): the victim's health after the hit"},
       {"health_max", "INTEGER", "the message's victim_health_max (field 11)"},
       {"shield_after", "INTEGER",
        "the message's victim_shield_new (field 18): the victim's shield after the hit"},
       {"shield_max", "INTEGER", "the message's victim_shield_max (field 17)"},
       {"hits", "INTEGER", "the message's hits (field 19)"},
       {"hitgroup", "INTEGER", "the message's hitgroup_id (field 21), Valve's number"},
       {"type", "INTEGER", "the message's type (field 3), Valve's number"},
       {"citadel_type", "INTEGER", "the message's citadel_type (field 4), Valve's number"},
       {"flags", "INTEGER",
        "the message's flags (field 13), a uint64 of bits stored as a signed 64-bit integer"},
       {"secondary", "INTEGER", "the message's is_secondary_stat (field 24): 1 or 0"},
       {"effectiveness", "REAL", "the message's effectiveness (field 25)"},
       {"server_tick", "INTEGER",
        "the message's server_tick (field 29): the server's tick it names, not the index tick"},
       {"x", "REAL", "the message's origin (field 5): x, world units (a coordinate it omits is 0)"},
       {"y", "REAL", "origin's y"},
       {"z", "REAL", "origin's z"}});
  s.tables[kKillStreaks] = Event(
      "kill_streaks",
      "a CCitadelUserMsg_KillStreak user message: a player's kill streak grew, began (first "
      "blood) or ended",
      {{"slot", "INTEGER",
        "the player (players.slot) whose pawn the message's player_pawn handle names; NULL when "
        "none (meta: kill_streaks_without_player)"},
       {"kills", "INTEGER", "the message's num_kills (field 2): the streak's kills"},
       {"first_blood", "INTEGER",
        "the message's is_first_blood (field 3): 1 or 0 (0 when not sent)"},
       {"ended", "INTEGER", "the message's streak_ended (field 4): 1 or 0 (0 when not sent)"},
       {"duration", "REAL",
        "the message's duration (field 5), as sent (Valve's default is 5); NULL when not sent"}});
  s.tables[kRespawns] = Event(
      "respawns", "a CCitadelUserMsg_PlayerRespawned user message: a player's hero respawned",
      {{"slot", "INTEGER",
        "the player (players.slot) whose pawn the message's player_pawn handle names; NULL when "
        "none (meta: respawns_without_player)"},
       {"yaw", "REAL", "the message's facing_yaw (field 2): the way the hero faces, degrees"}});
  s.tables[kObjectiveEvents] = Event(
      "objective_events",
      "a CCitadelUserMsg_BossDamaged (kind 'damaged') or BossKilled ('killed') user message: an "
      "objective damaged or destroyed, labelled by the class of the entity its handle names, "
      "not by entity_killed_class, which shifts between patches. Messages are read before their "
      "packet's entities, so one killed and deleted in the same packet keeps its class",
      {{"kind", "TEXT NOT NULL", "'damaged' (BossDamaged) or 'killed' (BossKilled)"},
       {"entity", "INTEGER",
        "the objective's entity index, from the handle entity_damaged or entity_killed (field "
        "3), kept when no live entity is there (meta: boss_damaged_without_entity, "
        "boss_killed_without_entity); NULL when the handle names none"},
       {"class", "TEXT",
        "the objective's class: CNPC_TrooperBoss guardian, CNPC_Boss_Tier2 walker, "
        "CNPC_TrooperBarrackBoss base guardian, CCitadel_Destroyable_Building shrine, "
        "CNPC_Boss_Tier3 patron, CNPC_MidBoss; NULL when none is live"},
       {"name", "TEXT", "the objective's EntityNames name; NULL when it has none"},
       {"team", "INTEGER", "the message's objective_team (field 1): the objective's team"},
       {"lane", "INTEGER",
        "the objective's m_iLane then (CMsgLaneColor: 1 yellow, 3 green, 4 blue, 6 purple; 0 on "
        "the patron); NULL for shrines, whose class has none"},
       {"objective_id", "INTEGER",
        "BossDamaged's objective_id (field 2); NULL on 'killed' rows"},
       {"mask_change", "INTEGER",
        "BossKilled's objective_mask_change (field 2); NULL on 'damaged' rows"},
       {"killer", "INTEGER",
        "the player (players.slot) whose pawn or controller BossKilled's entity_killer handle "
        "names; NULL when no player, and on 'damaged' rows"},
       {"killer_entity", "INTEGER",
        "the killer's entity index; NULL when the handle names no live entity, and on 'damaged' "
        "rows"},
       {"killer_class", "TEXT",
        "the killer's class (CCitadelPlayerPawn, CNPC_Trooper, ...); NULL when none is live, and "
        "on 'damaged' rows"},
       {"bosses_remaining", "INTEGER",
        "BossKilled's bosses_remaining (field 7); NULL on 'damaged' rows"},
       {"message_time", "REAL",
        "BossKilled's own gametime (field 6), seconds, as sent; NULL on 'damaged' rows"},
       {"x", "REAL",
        "BossKilled's entity_position (field 8): where the objective died, x, world units; NULL "
        "on 'damaged' rows"},
       {"y", "REAL", "entity_position's y"},
       {"z", "REAL", "entity_position's z"}});
  s.tables[kMidBoss] = Event(
      "mid_boss",
      "the mid boss: its spawn (CCitadelUserMsg_MidBossSpawned, kind 'spawned'), a Rejuvenator "
      "status (RejuvStatus, 'rejuv') or its death (a BossKilled naming a CNPC_MidBoss, "
      "'killed': an objective_events row too, but not counted among the objectives checked "
      "against the post-match record, which lists the mid boss apart)",
      {{"kind", "TEXT NOT NULL", "'spawned', 'rejuv' or 'killed'"},
       {"team", "INTEGER",
        "'rejuv': the message's killing_team (field 1), as sent; 'killed': the killer's m_iTeamNum (2 "
        "Amber, 3 Sapphire); NULL on 'spawned' rows"},
       {"slot", "INTEGER",
        "'rejuv': the player whose pawn the message's player_pawn handle names; 'killed': the "
        "killer's player (objective_events' killer); NULL when none"},
       {"user_team", "INTEGER", "RejuvStatus's user_team (field 3), as sent; NULL on other rows"},
       {"event_type", "INTEGER",
        "RejuvStatus's event_type (field 4), Valve's number; NULL on other rows"}});
  s.tables[kPurchases] = Event(
      "purchases",
      "a CCitadelUserMsg_AbilitiesChanged user message: a change of a player's items or "
      "abilities (bought, upgraded, sold, swapped, leveled up, failed)",
      {{"slot", "INTEGER",
        "the message's purchaser_player_slot (field 1), as sent, which gem reads as players.slot"},
       {"item", "TEXT",
        "the name of ability_id: the replay's EntityNames entry whose token it is, else "
        "known_names' item; NULL when neither (meta: unknown_ability_ids). An item's or an "
        "ability's name"},
       {"ability_id", "INTEGER",
        "the message's ability_id (field 2): Valve's token of the item's or ability's name"},
       {"change", "TEXT",
        "the message's change (field 3): 'bought', 'upgraded', 'sold', 'swapped', 'leveled_up', "
        "'failed' (Valve's Change 0-5); another value as its number; NULL when not sent"}});
  s.tables[kPurchaseNotifications] = Event(
      "purchase_notifications",
      "a CCitadelUserMessage_ItemPurchaseNotification user message: an item bought or sold, as "
      "the game announces it",
      {{"slot", "INTEGER", "the message's userid (field 1), as sent, which gem reads as players.slot"},
       {"item", "TEXT",
        "the name of ability_id: the replay's EntityNames entry whose token it is, else "
        "known_names' item; NULL when neither (meta: unknown_ability_ids)"},
       {"ability_id", "INTEGER",
        "the message's ability_id (field 2): Valve's token of the item's name"},
       {"sold", "INTEGER", "the message's sell (field 3): 1 sold, 0 bought (0 when not sent)"},
       {"quickbuy", "INTEGER", "the message's quickbuy (field 4): 1 or 0 (0 when not sent)"}});
  s.tables[kAbilityCasts] = Event(
      "ability_casts",
      "a CCitadelUserMessage_ImportantAbilityUsed user message: a use of an ability the game "
      "announces",
      {{"slot", "INTEGER",
        "the player (players.slot) whose pawn or controller the message's player handle names, "
        "else the caster's; NULL when neither is a player's"},
       {"caster_entity", "INTEGER",
        "the entity index the message's caster handle (field 2) names; NULL when none is live"},
       {"caster_class", "TEXT", "the caster's class; NULL when none is live"},
       {"ability", "TEXT", "the message's ability_name (field 3), as sent"}});
  s.tables[kPings] = Event(
      "pings",
      "a player's ping: a CCitadelUserMsg_MapPing (kind 'map': a place or an entity pinged) or "
      "ChatWheel ('wheel': a chat wheel line) user message",
      {{"slot", "INTEGER",
        "the sender as sent ('map': the ping data's sender_player_slot; 'wheel': the message's "
        "player_slot), which gem reads as players.slot"},
       {"kind", "TEXT NOT NULL", "'map' (MapPing) or 'wheel' (ChatWheel)"},
       {"message_id", "INTEGER",
        "'map': the ping data's ping_message_id; 'wheel': the message's chat_message_id"},
       {"entity", "INTEGER",
        "'map': the ping data's entity_index (NULL for Valve's none, 0xFFFFFF); 'wheel': the "
        "live entity at pawn_entindex (the sender's pawn), else NULL"},
       {"entity_class", "TEXT", "the class of the entity then; NULL when none is live"},
       {"x", "REAL",
        "'map': the ping data's ping_location, x, world units; NULL on 'wheel' rows"},
       {"y", "REAL", "ping_location's y"},
       {"z", "REAL", "ping_location's z"},
       {"enemy", "INTEGER", "MapPing's pinged_enemy_entity (field 4): 1 or 0; NULL when not sent"},
       {"minimap", "INTEGER", "MapPing's is_minimap_ping (field 6): 1 or 0; NULL when not sent"},
       {"blind", "INTEGER", "MapPing's is_blind_ping (field 8): 1 or 0; NULL when not sent"},
       {"hero", "TEXT", "MapPing's pinged_hero_name (field 7), as sent"},
       {"param", "TEXT", "ChatWheel's param_1 (field 6), the line's parameter, as sent"},
       {"lane_color", "INTEGER",
        "ChatWheel's lane_color (field 7) (CMsgLaneColor: 1 yellow, 3 green, 4 blue, 6 purple)"}});
  s.tables[kIdolReturns] = Event(
      "idol_returns",
      "a CCitadelUserMsg_ReturnIdol user message: a place the urn (idol) is to be delivered to",
      {{"location_index", "INTEGER", "the message's location_index (field 1)"},
       {"enabled", "INTEGER",
        "the message's location_enabled (field 3): 1 or 0; NULL when not sent"},
       {"x", "REAL", "the message's return_location (field 2): x, world units"},
       {"y", "REAL", "return_location's y"},
       {"z", "REAL", "return_location's z"}});
  s.tables[kFlexSlots] = Event(
      "flex_slots", "a CCitadelUserMsg_FlexSlotUnlocked user message: a team unlocked a flex slot",
      {{"team", "INTEGER", "the message's team_number (field 1), as sent"},
       {"flex_slot", "INTEGER", "the message's flexslot_unlocked (field 2): which slot"}});
  TableSpec bans;
  bans.name = "banned_heroes";
  bans.comment =
      "a hero id in a CCitadelUserMsg_BannedHeroes user message: one row an id, in the "
      "message's order";
  bans.auto_id = true;
  bans.columns = {{"tick", "INTEGER NOT NULL", kMessageTick},
                  {"hero_id", "INTEGER NOT NULL",
                   "the banned hero's id (banned_hero_ids, read unsigned): heroes.hero_id"}};
  s.tables[kBannedHeroes] = bans;
  s.tables[kModifiers] = Event(
      "modifiers",
      "a life of an ActiveModifiers string-table entry (a buff or debuff, Valve's "
      "CModifierTableEntry): from when the entry takes a serial it did not hold to when it says "
      "REMOVED or takes another serial. Rows are written as lives end; entries that do not "
      "parse give none (meta: damaged_modifier_entries)",
      {{"removed_tick", "INTEGER",
        "the tick the entry said MODIFIER_ENTRY_TYPE_REMOVED or took another serial; NULL while "
        "still on at the end"},
       {"removed_time", "REAL", "the match clock then, seconds; NULL while still on at the end"},
       {"slot", "INTEGER", "the player (players.slot) whose pawn or controller parent is"},
       {"parent", "INTEGER",
        "the entity index the entry's parent handle (field 2) names, looked up at the end of the "
        "first frame it exists in (up to 300 frames on: a signon's entries name the first "
        "packet's entities); NULL when none"},
       {"parent_class", "TEXT", "parent's class (CCitadelPlayerPawn, CNPC_Trooper, ...)"},
       {"caster", "INTEGER",
        "the entity index the entry's caster handle (field 9) names, looked up with parent; "
        "NULL when none"},
       {"caster_slot", "INTEGER", "the player (players.slot) whose pawn or controller caster is"},
       {"ability", "TEXT",
        "the EntityNames name of the entity the entry's ability handle (field 10) names, else "
        "the name of ability_id (EntityNames, else known_names' items); NULL when neither"},
       {"ability_id", "INTEGER",
        "the entry's ability_subclass (field 13): the token of the ability's name; NULL when 0 "
        "or not sent"},
       {"modifier_id", "INTEGER",
        "the entry's modifier_subclass (field 4): the token of the modifier's name, which the "
        "replay does not hold"},
       {"modifier", "TEXT",
        "the name known_names gives modifier_id; NULL when it has none (meta: "
        "unknown_modifier_ids)"},
       {"serial", "INTEGER", "the entry's serial_number (field 3), which the life keeps"},
       {"stacks", "INTEGER", "the entry's stack_count (field 5), as last sent in the life"},
       {"max_stacks", "INTEGER", "the entry's max_stack_count (field 6), as last sent"},
       {"duration", "REAL",
        "the entry's duration (field 8), seconds, as last sent (Valve's default -1)"},
       {"last_applied", "REAL",
        "the entry's last_applied_time (field 7), as last sent: server time in seconds, not the "
        "match clock"}},
      "the tick the life began: the entry took a serial it did not hold");
  s.tables[kHeroes] = Plain(
      "heroes",
      "a hero id the replay names (players' m_nHeroID, bans), with its names: written at the end",
      {{"hero_id", "INTEGER PRIMARY KEY",
        "the hero's id: a controller's m_PlayerDataGlobal.m_nHeroID or a banned id, read "
        "unsigned as Valve's HeroID_t is (19 is Shiv; read signed it was -10)"},
       {"name", "TEXT",
        "the display name (Shiv) from gem's small table: the ids deadlock-api's asset data and "
        "Deadlock_DMA's hero enum agree on (2025-08); NULL when not in it"},
       {"internal_name", "TEXT",
        "the name the replay gives it: the EntityNames name of the pawn of a player with this "
        "id (hero_shiv); NULL when no such pawn had one (a ban)"},
       {"source", "TEXT",
        "where the names come from: 'replay', 'table' or 'replay+table'; NULL when neither "
        "(meta: unknown_hero_ids)"}});
  s.tables[kKnownNames] = Plain(
      "known_names",
      "a name gem carries for an id a replay may not name: 31 items (upgrade_*, Valve's "
      "abilities.vdata) and 40 modifiers (modifiers.vdata) a match commonly shows, as boon's "
      "generated name tables list them (2026-05). An item id is named from here when the "
      "replay's EntityNames entries do not name it, a modifier id always (a replay holds no "
      "modifier names)",
      {{"token", "INTEGER NOT NULL",
        "Valve's string token of the name: MurmurHash2 of the lower-cased name, seed 0x31415926, "
        "computed from the name"},
       {"name", "TEXT NOT NULL", "the item's or modifier's name (upgrade_vampire)"},
       {"kind", "TEXT NOT NULL", "'item' or 'modifier'"},
       {"source", "TEXT NOT NULL", "where the name comes from, the same on every row"}});
  s.tables[kPauses] = Event(
      "pauses",
      "a pause: the game rules' m_bGamePaused, from the frame it turns on to the frame it turns "
      "off; written when it ends",
      {{"end_tick", "INTEGER",
        "the tick of the frame m_bGamePaused turned off at; NULL while still paused at the end"},
       {"duration_s", "REAL",
        "the pause's length: (end_tick - tick) times the tick interval, seconds; NULL while still "
        "paused at the end"},
       {"team", "INTEGER",
        "the game rules' m_iPauseTeam when the pause began; NULL when -1"}},
      "the tick of the frame m_bGamePaused turned on at");
  s.tables[kUrn] = Event(
      "urn",
      "an event of the urn (idol). A replay names no carrier: a player's pawn carries it while "
      "a modifiers life with ability_golden_idol's token as ability_id is on it. 'picked_up': "
      "its first such life begins; 'returned': a modifier_citadel_idol_return life begins on it "
      "(one within 64 ticks of the last on that pawn is the same delivery); 'dropped': its last "
      "golden-idol life ends, with no delivery within 64 ticks either side and no new life "
      "within 64 ticks (a modifier put on afresh is no drop); 'point_enabled', "
      "'point_disabled': a delivery point (CCitadelIdolReturnTrigger) of team 2 or 3 turns on "
      "or off (m_bDisabled, or created enabled). A drop's row is written 64 ticks after it: "
      "order by tick, not id",
      {{"event", "TEXT NOT NULL",
        "'picked_up', 'returned', 'dropped', 'point_enabled' or 'point_disabled'"},
       {"slot", "INTEGER", "the carrier (players.slot); NULL on point rows"},
       {"team", "INTEGER",
        "the pawn's or the point's m_iTeamNum at the end of that frame (2 Amber, 3 Sapphire)"},
       {"entity", "INTEGER", "the pawn's or the point's entity index"},
       {"x", "REAL", "the pawn's or the point's position at the end of that frame: x, world units"},
       {"y", "REAL", "as x"},
       {"z", "REAL", "as x"}},
      "the tick of what it comes from: the modifier life's start or end, the point's change");
  s.tables[kPatronPhases] = Event(
      "patron_phases",
      "a phase of a patron (CNPC_Boss_Tier3): its m_ePhase when it is created and each time it "
      "changes",
      {{"entity", "INTEGER NOT NULL", "the patron's entity index"},
       {"team", "INTEGER", "its m_iTeamNum (2 Amber, 3 Sapphire)"},
       {"phase", "INTEGER",
        "its m_ePhase: boon reads 0 shielded by the walkers, 2 transforming, 1 final"}},
      "the tick it was created or its phase changed at");
  s.tables[kAbilityCooldowns] = Event(
      "ability_cooldowns",
      "a cooldown begun: an ability or item whose m_hOwnerEntity is a player's pawn takes a new "
      "m_flCooldownStart above 0, read at the end of that frame",
      {{"slot", "INTEGER", "the player (players.slot) whose pawn owns it"},
       {"ability", "TEXT",
        "the ability's or item's EntityNames name, else its class"},
       {"entity", "INTEGER", "the ability's or item's entity index"},
       {"cooldown_start", "REAL",
        "its m_flCooldownStart: server time in seconds (GameTime_t), not the match clock"},
       {"cooldown_end", "REAL",
        "its m_flCooldownEnd then, server time in seconds; NULL when it has none"},
       {"duration_s", "REAL", "cooldown_end - cooldown_start, seconds"}},
      "the tick of the frame the start changed in");
  AddRecordTables(&s);
  s.kill_columns = {
      {"victim_team", "INTEGER",
       "HeroKilled's victim_team_number (field 7): the victim's team (2 Amber, 3 Sapphire); NULL "
       "when not sent"},
      {"respawn_reason", "INTEGER",
       "HeroKilled's respawn_reason (field 6), Valve's number as sent; NULL when not sent"},
      {"inflictor_class", "TEXT",
       "the class of the entity at HeroKilled's entindex_inflictor, before the message's packet; "
       "NULL when none is live"},
      {"killer_ability", "TEXT",
       "the name of killer_ability_id: the replay's EntityNames entry whose token it is, else "
       "known_names' item; NULL when neither"},
      {"killer_ability_id", "INTEGER",
       "HeroKilled's killer_ability_id (field 9): Valve's token of the killing ability's name; "
       "NULL when 0 or not sent (builds before it)"}};
  s.tables[kTeamfights] = Plain(
      "teamfights",
      "a fight between the teams by boon's rule (boon.stats.teamfights: 5 s, 1,500 units, 3 "
      "heroes): damage between players of opposing teams, each Damage message placed at the "
      "victim's pawn at the end of its packet (else the attacker's), joins the active fight with "
      "the nearest centroid within 1,500 units whose last damage is at most 5 s back, else starts "
      "one; a fight is kept when at least 3 players dealt or took its damage",
      {{"fight", "INTEGER NOT NULL", "the fight's number, 1 up, by its first damage's tick"},
       {"start_tick", "INTEGER NOT NULL", "the tick of its first damage"},
       {"end_tick", "INTEGER NOT NULL", "the tick of its last damage"},
       {"start_time", "REAL", kGameTime},
       {"end_time", "REAL", "the match clock at end_tick, seconds; NULL as start_time"},
       {"duration_s", "REAL", "end_time less start_time, seconds (pauses left out, as the clock)"},
       {"x", "REAL", "the mean of its damage's positions: x, world units"},
       {"y", "REAL", "the mean of its damage's positions: y"},
       {"heroes", "INTEGER NOT NULL", "the players who dealt or took its damage"},
       {"slots", "TEXT NOT NULL", "their slots (players.slot), a JSON array in slot order"},
       {"events", "INTEGER NOT NULL", "its Damage messages"},
       {"hero_damage", "INTEGER NOT NULL", "the sum of their damage (the damage table's damage)"},
       {"kills", "INTEGER NOT NULL",
        "the kills (HeroKilled) whose victim's last damage placed at or before the kill is this "
        "fight's, as boon attributes them"}});
  s.after_sql = MatchViewsSql() + LaneViewsSql();
  // Written at the end (TableSpec::written): the heroes the match had and
  // the teamfights, which a later damage or kill can still add to (a live
  // index's commits rewrite them as they stand).
  s.tables[kHeroes].written = TableSpec::Written::kAtEnd;
  s.tables[kTeamfights].written = TableSpec::Written::kAtEnd;
  // A modifier's row once it is removed, a pause's once it ends.
  s.tables[kModifiers].written = TableSpec::Written::kWhenClosed;
  s.tables[kPauses].written = TableSpec::Written::kWhenClosed;
  return s;
}

}  // namespace

const GameSchema& DeadlockSchema() {
  static const GameSchema* const kSchema = new GameSchema(Build());
  return *kSchema;
}

}  // namespace gem::deadlock
