"""CS2's tables (core/cs2/) on the real fixtures.

damages, shots and kills must equal the fixtures' player_hurt, weapon_fire
and player_death events value by value, their players found here from the
events' user ids and pawn handles, their positions those of the timeline
(one row a tick) and of gem_position at the event's tick, damage_real the
damage capped by the victim's m_iHealth the tick before. Rounds are
numbered as the game rules count them, and every row is in the round its
tick falls in. Field names are unique in every class, so every column reads
one field."""
import json
import math
import os
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from gemtest import MODERN, connect, f32, need, need_some  # noqa: E402

CS2 = [s for s in MODERN if s.startswith("cs2")]
# The engine's hit groups (HITGROUP_*), as every CS2 tool names them.
HITGROUPS = {0: "generic", 1: "head", 2: "chest", 3: "stomach", 4: "left_arm", 5: "right_arm",
             6: "left_leg", 7: "right_leg", 8: "neck", 10: "gear"}
NO_PLAYER = 65535


def events(con, name):
    return [(tick, json.loads(keys)) for tick, keys in con.execute(
        "SELECT tick, keys FROM game_events WHERE name = ? ORDER BY id", (name,))]


class Players:
    """Slots from the events' own keys: the controller at entity index
    userid + 1, whose m_hPlayerPawn names the pawn the *_pawn handle does."""

    def __init__(self, con):
        self.con = con

    def slot(self, keys, who, tick):
        uid = keys.get(who)
        pawn = keys.get(who + "_pawn")
        if uid is None or uid == NO_PLAYER or pawn in (None, -1):
            return None
        row = self.con.execute(
            "SELECT entity FROM entities WHERE ent_index = ? AND created_tick <= ? AND "
            "(deleted_tick IS NULL OR deleted_tick > ?)", (uid + 1, tick, tick)).fetchone()
        if row is None:
            return None
        handle = self.con.execute("SELECT gem_value(?, 'm_hPlayerPawn', ?)",
                                  (row[0], tick)).fetchone()[0]
        if handle is None or (handle & 0x3FFF) != (pawn & 0x3FFF):
            return None
        return uid

    def pawn(self, slot, tick):
        return self.con.execute(
            "SELECT e.entity FROM entities e, entities c WHERE c.ent_index = ? "
            "AND c.created_tick <= ?2 AND (c.deleted_tick IS NULL OR c.deleted_tick > ?2) "
            "AND e.handle = gem_value(c.entity, 'm_hPlayerPawn', ?2) AND e.created_tick <= ?2 "
            "AND (e.deleted_tick IS NULL OR e.deleted_tick > ?2)",
            (slot + 1, tick)).fetchone()[0]

    def position(self, slot, tick):
        p = self.con.execute("SELECT gem_position(?, ?)", (self.pawn(slot, tick), tick)).fetchone()[0]
        return json.loads(p) if p else [None, None, None]

    def timeline(self, slot, tick):
        return self.con.execute("SELECT x, y, z, pitch, yaw FROM timeline WHERE slot = ? AND tick = ?",
                                (slot, tick)).fetchone()


def close(a, b):
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-3)


class FixtureTables(unittest.TestCase):
    def each(self):
        need_some(CS2)
        for stem in CS2:
            with self.subTest(stem):
                con = connect(need(stem, "--timeline-step", "1"))
                yield stem, con, Players(con)

    def assertAt(self, players, slot, tick, xyz):
        """xyz is where slot's pawn is at tick, by the timeline and by
        gem_position."""
        self.assertEqual(tuple(xyz), players.timeline(slot, tick)[:3])
        for ours, theirs in zip(xyz, players.position(slot, tick)):
            self.assertTrue(close(ours, theirs), (ours, theirs))

    def test_damages_are_the_player_hurt_events(self):
        total = 0
        for stem, con, players in self.each():
            rows = con.execute(
                "SELECT tick, attacker, victim, weapon, hitgroup, damage, damage_armor, damage_real, "
                "health_after, armor_after, attacker_x, attacker_y, attacker_z, victim_x, victim_y, "
                "victim_z, attacker_team, victim_team FROM damages ORDER BY id").fetchall()
            hurts = events(con, "player_hurt")
            self.assertEqual(len(rows), len(hurts))
            for row, (tick, k) in zip(rows, hurts):
                victim = players.slot(k, "userid", tick)
                attacker = players.slot(k, "attacker", tick)
                self.assertEqual(row[:10], (tick, attacker, victim, k["weapon"],
                                            HITGROUPS[k["hitgroup"]], k["dmg_health"],
                                            k["dmg_armor"], row[7], k["health"], k["armor"]))
                before = con.execute("SELECT gem_value(?, 'm_iHealth', ?)",
                                     (players.pawn(victim, tick), tick - 1)).fetchone()[0]
                # Hits of one tick: the one before left the health.
                same = [h for t, h in hurts[:hurts.index((tick, k))]
                        if t == tick and players.slot(h, "userid", t) == victim]
                if same:
                    before = same[-1]["health"]
                self.assertEqual(row[7], min(k["dmg_health"], before))
                if attacker is not None:
                    self.assertAt(players, attacker, tick, row[10:13])
                    self.assertEqual(row[16], con.execute(
                        "SELECT gem_value(?, 'm_iTeamNum', ?)",
                        (players.pawn(attacker, tick), tick)).fetchone()[0])
                self.assertAt(players, victim, tick, row[13:16])
                total += 1
        self.assertGreater(total, 10)

    def test_shots_are_the_weapon_fire_events(self):
        total = 0
        for stem, con, players in self.each():
            rows = con.execute("SELECT tick, slot, weapon, silenced, x, y, z, pitch, yaw "
                               "FROM shots ORDER BY id").fetchall()
            fires = events(con, "weapon_fire")
            self.assertEqual(len(rows), len(fires))
            for row, (tick, k) in zip(rows, fires):
                slot = players.slot(k, "userid", tick)
                self.assertEqual(row[:4], (tick, slot, k["weapon"], int(k["silenced"])))
                self.assertAt(players, slot, tick, row[4:7])
                self.assertEqual(row[7:9], players.timeline(slot, tick)[3:5])
                total += 1
        self.assertGreater(total, 50)

    def test_kills_carry_the_player_death_keys(self):
        total = 0
        for stem, con, players in self.each():
            rows = con.execute(
                "SELECT tick, victim, killer, assisters, weapon, headshot, penetrated, thrusmoke, "
                "noscope, attackerblind, assistedflash, distance, hitgroup, attacker_x, "
                "attacker_y, attacker_z, x, y, z FROM kills ORDER BY id").fetchall()
            deaths = events(con, "player_death")
            self.assertEqual(len(rows), len(deaths))
            for row, (tick, k) in zip(rows, deaths):
                victim = players.slot(k, "userid", tick)
                killer = players.slot(k, "attacker", tick)
                assister = players.slot(k, "assister", tick)
                self.assertEqual(row[:11], (
                    tick, victim, killer, json.dumps([assister] if assister is not None else []),
                    k["weapon"], int(k["headshot"]), k["penetrated"], int(k["thrusmoke"]),
                    int(k["noscope"]), int(k["attackerblind"]), int(k["assistedflash"])))
                self.assertEqual(row[11], f32(k["distance"]))
                self.assertEqual(row[12], HITGROUPS[k["hitgroup"]])
                self.assertAt(players, killer, tick, row[13:16])
                self.assertAt(players, victim, tick, row[16:19])
                total += 1
        self.assertEqual(total, 2)

    def test_rounds_are_numbered_as_the_game_counts_them(self):
        for stem, con, players in self.each():
            rules = con.execute("SELECT e.entity FROM entities e JOIN classes c USING (class_id) "
                                "WHERE c.name = 'CCSGameRulesProxy'").fetchone()[0]
            rounds = con.execute("SELECT round, tick, start_tick FROM rounds ORDER BY round").fetchall()
            self.assertGreaterEqual(len(rounds), 1)
            for number, tick, start in rounds:
                played = con.execute("SELECT gem_value(?, 'm_pGameRules.m_totalRoundsPlayed', ?)",
                                     (rules, tick)).fetchone()[0]
                self.assertEqual(number, played + 1)
                if start is not None:
                    # A round the replay saw start: its start counter moved then.
                    count = "m_pGameRules.m_nRoundStartCount"
                    self.assertNotEqual(
                        con.execute("SELECT gem_value(?, ?, ?)", (rules, count, start)).fetchone(),
                        con.execute("SELECT gem_value(?, ?, ?)", (rules, count, start - 1)).fetchone())
            meta = dict(con.execute("SELECT key, value FROM meta"))
            self.assertEqual(meta["rounds_from_game_rules"] + meta["rounds_from_events"], len(rounds))
            # Every row is in the round its tick is in.
            for table in ("damages", "shots", "kills", "timeline", "bomb"):
                for tick, round_ in con.execute("SELECT tick, round FROM %s" % table):
                    want = con.execute("SELECT max(round) FROM rounds WHERE tick <= ?",
                                       (tick,)).fetchone()[0]
                    self.assertEqual(round_, want, (table, tick))

    def test_meta_counts_nothing_wrong(self):
        for stem, con, players in self.each():
            meta = dict(con.execute("SELECT key, value FROM meta"))
            for key in ("event_keys_of_wrong_type", "unknown_hitgroups", "damages_unknown_health",
                        "combat_events_without_player", "round_ends_repeated"):
                self.assertEqual(meta[key], 0, key)


if __name__ == "__main__":
    junit.main()
