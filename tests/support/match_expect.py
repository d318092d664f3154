"""What every match-layer column should be, computed from the index's fields
alone (gem_value, the entities and string tables): the tests' own statement
of each game's rules, written apart from the C++ modules, so that a timeline
row is checked against the raw fields behind it at the same tick.

Positions: cell * width - 16384 + offset in float32 (Dota 2: 128-unit cells,
CS2 and Deadlock: 512). Angles: degrees in [-180, 180)."""
import bisect
import json
import math
import subprocess

from gemtest import GEM_DUMP, f32

COMMON = ["tick", "game_time", "slot", "entity", "alive", "x", "y", "z", "pitch", "yaw",
          "health", "max_health", "team"]
EXTRA = {
    "dota2": ["mana", "max_mana", "level", "xp", "gold", "earned_gold", "net_worth", "last_hits",
              "denies", "kills", "deaths", "assists", "stuns", "camps_stacked",
              "creeps_stacked", "teamfight_participation"],
    "cs2": ["armor", "money", "active_weapon", "kills", "deaths", "assists", "round", "place",
            "has_defuser", "has_helmet", "equipment_value", "flash_duration", "velocity"],
    "deadlock": ["level", "souls", "kills", "deaths", "assists", "ap_net_worth", "last_hits",
                 "denies", "player_damage", "damage_taken", "healing", "self_healing",
                 "objective_damage", "kill_streak", "lane", "creep_kill_souls",
                 "creep_air_orb_souls", "creep_ground_orb_souls", "creep_solo_bonus_souls",
                 "creep_deny_souls", "creep_neutral_souls"],
}
# Deadlock's m_PlayerDataGlobal counters by timeline column (NULL where a
# build has no such field: damage_taken and kill_streak in 10423 and 10524).
# The controller's creep souls by kind (bare names in 10423 and 10524).
DEADLOCK_CREEP_SOULS = {"creep_kill_souls": "m_iCreepGoldKill",
                        "creep_air_orb_souls": "m_iCreepGoldAirOrb",
                        "creep_ground_orb_souls": "m_iCreepGoldGroundOrb",
                        "creep_solo_bonus_souls": "m_iCreepGoldSoloBonus",
                        "creep_deny_souls": "m_iCreepGoldDeny",
                        "creep_neutral_souls": "m_iCreepGoldNeutral"}
DEADLOCK_COUNTERS = {"ap_net_worth": "m_iAPNetWorth", "last_hits": "m_iLastHits",
                     "denies": "m_iDenies", "player_damage": "m_iHeroDamage",
                     "damage_taken": "m_iDamageTaken", "healing": "m_iHeroHealing",
                     "self_healing": "m_iSelfHealing", "objective_damage": "m_iObjectiveDamage",
                     "kill_streak": "m_iKillStreak"}
CELL = {"dota2": 128, "cs2": 512, "deadlock": 512}
NO_HANDLE = 0xFFFFFF


def coord(cell, vec, width):
    if cell is None or vec is None:
        return None
    return f32(f32(cell * width - 16384) + vec)


def degrees(a):
    a = f32(a)
    if a >= 180 or a < -180:
        a = f32(a - 360 * math.floor((a + 180) / 360))
    return a


class Fields:
    """Field values of entities as of ticks, by gem_value."""

    def __init__(self, con, packets=None):
        self.con = con
        # The ticks of the replay's packets (packet_ticks), for velocities.
        self.packets = packets
        self.classes = dict(con.execute(
            "SELECT e.entity, c.name FROM entities e JOIN classes c USING (class_id)"))

    def value(self, entity, name, tick):
        if entity is None:
            return None
        return self.con.execute("SELECT gem_value(?, ?, ?)", (entity, name, tick)).fetchone()[0]

    def by_handle(self, handle, tick):
        if handle is None or handle == NO_HANDLE:
            return None
        row = self.con.execute(
            "SELECT entity FROM entities WHERE handle = ? AND created_tick <= ? "
            "AND (deleted_tick IS NULL OR deleted_tick > ?)", (handle, tick, tick)).fetchone()
        return row[0] if row else None

    def alive_of_class(self, name, tick):
        return [r[0] for r in self.con.execute(
            "SELECT e.entity FROM entities e JOIN classes c USING (class_id) WHERE c.name = ? "
            "AND created_tick <= ? AND (deleted_tick IS NULL OR deleted_tick > ?) "
            "ORDER BY e.entity", (name, tick, tick))]

    def at_index(self, index, tick):
        row = self.con.execute(
            "SELECT entity FROM entities WHERE ent_index = ? AND created_tick <= ? "
            "AND (deleted_tick IS NULL OR deleted_tick > ?)", (index, tick, tick)).fetchone()
        return row[0] if row else None

    def position(self, entity, tick, width):
        v = lambda n: self.value(entity, "CBodyComponent." + n, tick)  # noqa: E731
        return [coord(v("m_cell" + a), v("m_vec" + a), width) for a in "XYZ"]

    def angles(self, entity, field, tick):
        a = self.value(entity, field, tick)
        if a is None:
            return None, None
        a = json.loads(a)
        return degrees(a[0]), degrees(a[1])

    def entity_name(self, entity, tick):
        index = self.value(entity, "m_pEntity.m_nameStringableIndex", tick)
        if index is None:
            return None
        row = self.con.execute(
            "SELECT key FROM string_table_entries WHERE table_id = (SELECT table_id FROM "
            "string_tables WHERE name = 'EntityNames') AND idx = ? AND tick <= ? "
            "ORDER BY tick DESC, seq DESC LIMIT 1", (index, tick)).fetchone()
        return row[0] if row else None


def body_columns(f, game, entity, tick, angle_field):
    x, y, z = f.position(entity, tick, CELL[game]) if entity else (None, None, None)
    pitch, yaw = f.angles(entity, angle_field, tick) if entity else (None, None)
    life = f.value(entity, "m_lifeState", tick)
    return {"entity": entity, "alive": None if life is None else int(life == 0),
            "x": x, "y": y, "z": z, "pitch": pitch, "yaw": yaw,
            "health": f.value(entity, "m_iHealth", tick),
            "team": f.value(entity, "m_iTeamNum", tick)}


def dota_row(f, slot, tick):
    """Dota 2: the player resource's slot, its hero, its team's data entity."""
    res = f.alive_of_class("CDOTA_PlayerResource", tick)[0]
    pd = "m_vecPlayerData.%04d." % slot
    td = "m_vecPlayerTeamData.%04d." % slot
    team = f.value(res, pd + "m_iPlayerTeam", tick)
    hero = f.by_handle(f.value(res, td + "m_hSelectedHero", tick), tick)
    if hero is None:
        # The player's controller (ids doubled since 7.31) names its hero.
        for c in f.alive_of_class("CDOTAPlayerController", tick):
            if f.value(c, "m_nPlayerID", tick) == 2 * slot:
                hero = f.by_handle(f.value(c, "m_hAssignedHero", tick), tick)
    row = body_columns(f, "dota2", hero, tick, "CBodyComponent.m_angRotation")
    row.update(slot=slot, max_health=f.value(hero, "m_iMaxHealth", tick),
               mana=f.value(hero, "m_flMana", tick), max_mana=f.value(hero, "m_flMaxMana", tick),
               level=f.value(hero, "m_iCurrentLevel", tick),
               kills=f.value(res, td + "m_iKills", tick),
               deaths=f.value(res, td + "m_iDeaths", tick),
               assists=f.value(res, td + "m_iAssists", tick),
               teamfight_participation=f.value(res, td + "m_flTeamFightParticipation", tick))
    data = f.alive_of_class("CDOTA_DataRadiant" if team == 2 else "CDOTA_DataDire", tick)
    team_slot = f.value(res, td + "m_iTeamSlot", tick)
    d = "m_vecDataTeam.%04d." % team_slot if team_slot is not None else None
    value = (lambda n: f.value(data[0], d + n, tick)) if data and d else (lambda n: None)
    reliable, unreliable = value("m_iReliableGold"), value("m_iUnreliableGold")
    row.update(gold=None if reliable is None or unreliable is None else reliable + unreliable,
               xp=value("m_iTotalEarnedXP"), earned_gold=value("m_iTotalEarnedGold"),
               net_worth=value("m_iNetWorth"), last_hits=value("m_iLastHitCount"),
               denies=value("m_iDenyCount"), stuns=value("m_fStuns"),
               camps_stacked=value("m_iCampsStacked"), creeps_stacked=value("m_iCreepsStacked"))
    return row


def controller_row(f, game, slot, tick):
    """CS2 and Deadlock: the controller at entity index slot + 1 and its pawn."""
    c = f.at_index(slot + 1, tick)
    pawn_field = "m_hPlayerPawn" if game == "cs2" else "m_hHeroPawn"
    pawn = f.by_handle(f.value(c, pawn_field, tick), tick)
    row = body_columns(f, game, pawn, tick, "m_angEyeAngles")
    row["slot"] = slot
    if game == "cs2":
        weapon = f.by_handle(f.value(pawn, "m_pWeaponServices.m_hActiveWeapon", tick), tick)
        row.update(max_health=f.value(pawn, "m_iMaxHealth", tick),
                   armor=f.value(pawn, "m_ArmorValue", tick),
                   money=f.value(c, "m_pInGameMoneyServices.m_iAccount", tick),
                   active_weapon=f.classes.get(weapon),
                   kills=f.value(c, "m_pActionTrackingServices.m_iKills", tick),
                   deaths=f.value(c, "m_pActionTrackingServices.m_iDeaths", tick),
                   assists=f.value(c, "m_pActionTrackingServices.m_iAssists", tick),
                   round=f.con.execute("SELECT max(round) FROM rounds WHERE tick <= ?",
                                       (tick,)).fetchone()[0],
                   place=f.value(pawn, "m_szLastPlaceName", tick),
                   has_defuser=f.value(pawn, "m_pItemServices.m_bHasDefuser", tick),
                   has_helmet=f.value(pawn, "m_pItemServices.m_bHasHelmet", tick),
                   equipment_value=f.value(pawn, "m_unCurrentEquipmentValue", tick),
                   flash_duration=f.value(pawn, "m_flFlashDuration", tick),
                   velocity=velocity(f, c, pawn, tick))
    else:
        row.update(max_health=f.value(c, "m_iHealthMax", tick),
                   level=f.value(c, "m_iLevel", tick), souls=f.value(c, "m_iGoldNetWorth", tick),
                   kills=f.value(c, "m_iPlayerKills", tick), deaths=f.value(c, "m_iDeaths", tick),
                   assists=f.value(c, "m_iPlayerAssists", tick))
        for column, field in DEADLOCK_COUNTERS.items():
            row[column] = f.value(c, field, tick)
        row["lane"] = f.value(c, "m_nOriginalLaneAssignment", tick)
        for column, field in DEADLOCK_CREEP_SOULS.items():
            row[column] = f.value(c, field, tick)
    return row


def packet_ticks(replay):
    """The ticks of a replay's DEM_Packet and DEM_FullPacket frames (of play),
    by gem-dump trace."""
    out = subprocess.run([GEM_DUMP, "trace", replay], capture_output=True, text=True,
                         check=True).stdout
    ticks = set()
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0] == "frame" and parts[2] in ("DEM_Packet", "DEM_FullPacket") and \
                parts[3] != "4294967295":
            ticks.add(int(parts[3]))
    return sorted(ticks)


def velocity(f, controller, pawn, tick):
    """The pawn's speed over the last packet at or before tick: its move
    from the packet before, in units a second; None unless the pawn was
    there at that packet before."""
    if pawn is None:
        return None
    i = bisect.bisect_right(f.packets, tick) - 1
    if i < 1:
        return None
    now, before = f.packets[i], f.packets[i - 1]
    a, b = f.position(pawn, now, CELL["cs2"]), f.position(pawn, before, CELL["cs2"])
    there = f.con.execute("SELECT created_tick <= ? FROM entities WHERE entity = ?",
                          (before, pawn)).fetchone()[0]
    if not there or None in a or None in b:
        return None
    rate = f.con.execute("SELECT tick_rate FROM match_info").fetchone()[0]
    d = math.sqrt(sum((p - q) * (p - q) for p, q in zip(a, b)))
    return d / ((now - before) * (1.0 / rate))


def expected_row(f, game, slot, tick):
    return dota_row(f, slot, tick) if game == "dota2" else controller_row(f, game, slot, tick)


def check_held(test, con, table, holders, array, value_fields, column, value_column,
               transform=lambda v: v, takes=lambda cls: True):
    """A held-entities table (inventory, abilities) against gem_state: for
    every (slot, holder) in `holders`, every position of its `array` at every
    tick where its handle, or the entity it names, changes, the table's
    as-of row must be that entity's name and value (NULLs when it names
    nothing the table takes). Returns the values compared."""
    f = Fields(con)
    last = con.execute("SELECT last_tick FROM match_info").fetchone()[0]
    checked = 0
    for slot, holder in holders:
        fields = [r[0] for r in con.execute(
            "SELECT DISTINCT field FROM gem_changes WHERE entity = ? AND field LIKE ?",
            (holder, array + ".%"))]
        for field in fields:
            pos = int(field.rsplit(".", 1)[1])
            ticks = {r[0] for r in con.execute(
                "SELECT tick FROM gem_changes WHERE entity = ? AND field = ?", (holder, field))}
            for tick in sorted(ticks | {last}):
                held = f.by_handle(f.value(holder, field, tick), tick)
                if held is not None:
                    marks = ",".join("?" * len(value_fields))
                    ticks |= {r[0] for r in con.execute(
                        "SELECT tick FROM gem_changes WHERE entity = ? AND field IN (%s, "
                        "'m_pEntity.m_nameStringableIndex')" % marks, (held, *value_fields))}
                    row = con.execute("SELECT created_tick, deleted_tick FROM entities WHERE "
                                      "entity = ?", (held,)).fetchone()
                    ticks |= {t for t in row if t is not None}
            for tick in sorted(ticks | {last}):
                held = f.by_handle(f.value(holder, field, tick), tick)
                if held is not None and not takes(f.classes[held]):
                    held = None
                if held is None:
                    want = (None, None, None)
                else:
                    value = None
                    for name in value_fields:
                        value = f.value(held, name, tick) if value is None else value
                    want = (f.entity_name(held, tick),
                            None if value is None else transform(value), held)
                row = con.execute(
                    "SELECT %s, %s, entity FROM %s WHERE slot = ? AND position = ? AND tick <= ? "
                    "ORDER BY tick DESC, id DESC LIMIT 1" % (column, value_column, table),
                    (slot, pos, tick)).fetchone()
                test.assertEqual(row or (None, None, None), want, "%s slot %d position %d tick %d"
                                 % (table, slot, pos, tick))
                checked += 1
    return checked
