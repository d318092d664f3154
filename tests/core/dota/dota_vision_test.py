"""Vision and map control on a gem-synth match with --vision: Smoke of
Deceit (smoke_windows, smoke_kills, smokes: core/dota/smoke_views.h) and
ward lives (wards' killed and killer_name, ward_tracker.h; ward_lives,
ward_views.h).

Each must equal two computations made apart from it: OpenDota's rules
written here the way odota/parser runs them (#91's pass over the combat
log in arrival order with a map of open smoke windows by player; Wards'
queue of ward deaths by kind, taken by each ward whose m_lifeState goes to
1, read here from gem_changes), and what gem-synth wrote
(tools/synth/dota_smokes.h, player_stats.h): each hero's window as it
added and removed the modifier, each kill's smoke by the rule over those
windows, and each ward's destroyer."""
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from dota_synth import FLAW_MINUTES, clock, synthetic  # noqa: E402
from gemtest import AUTO, NEKIT, connect, docs_sql, need  # noqa: E402

SMOKE = "modifier_smoke_of_deceit"
WARD_TARGETS = {"npc_dota_observer_wards": "observer", "npc_dota_sentry_wards": "sentry"}
WARD_CLASSES = {"CDOTA_NPC_Observer_Ward": "observer",
                "CDOTA_NPC_Observer_Ward_TrueSight": "sentry"}
CAPS = {"observer": 360, "sentry": 420}  # odota/web VisionLog
MAX_SECONDS, LINGER_SECONDS = 35, 30


def seconds(timestamp):
    """odota/parser's `time`: Java's Math.round of the entry's float."""
    return None if timestamp is None else math.floor(timestamp + 0.5)


def opendota(con):
    """(windows, kills) by OpenDota's rule over combat_log_entries:
    windows {(slot, start_id): (start_tick, start_s, end_id, end_tick,
    end_s)}; kills [(id, tick, killer, victim, time_s, smoke)] in entry
    order."""
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players") if h is not None}
    rows = con.execute(
        "SELECT id, tick, type, target_name_idx, attacker_name_idx, damage_source_name_idx, "
        "inflictor_name_idx, timestamp, is_target_hero, is_target_illusion, "
        "is_attacker_illusion, json_extract(extra, '$.will_reincarnate') "
        "FROM combat_log_entries ORDER BY id").fetchall()
    open_since, windows = {}, {}
    for (id_, tick, type_, target, _, _, inflictor, ts, _, _, _, _) in rows:
        if names.get(inflictor) != SMOKE or ts is None or names.get(target) not in slot_of:
            continue
        slot = slot_of[names[target]]
        if type_ == 2 and slot not in open_since:
            open_since[slot] = (id_, tick, seconds(ts))
        elif type_ == 3 and slot in open_since:
            start = open_since.pop(slot)
            windows[(slot, start[0])] = (start[1], start[2], id_, tick, seconds(ts))
    for slot, start in open_since.items():
        windows[(slot, start[0])] = (start[1], start[2], None, None, start[2] + MAX_SECONDS)
    kills = []
    for (id_, tick, type_, target, attacker, source, _, ts, target_hero, target_illusion,
         attacker_illusion, reincarnate) in rows:
        if type_ != 4 or reincarnate:
            continue
        target_name, source_name = names.get(target), names.get(source)
        if target_name is None or source_name is None:  # as credited_deaths leaves them
            continue
        if names.get(attacker) == target_name and not attacker_illusion:
            continue  # a suicide
        if not target_hero or target_illusion:
            continue
        killer, t = slot_of.get(source_name), seconds(ts)
        smoke = t is not None and any(
            w_slot == killer and w[1] <= t <= w[4] + LINGER_SECONDS
            for (w_slot, _), w in windows.items())
        kills.append((id_, tick, killer, slot_of.get(target_name), t, int(smoke)))
    return windows, kills


def opendota_wards(con):
    """{entity: (killed, killer_name)} by odota/parser's Wards: the ward
    deaths of the combat log queue their damage source by kind; at the end
    of each tick, each ward whose m_lifeState went to 1 in it (in entity
    index order, as a packet sends them) takes the oldest of its kind, or
    expired. Wards that never go dying are left out."""
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    events = []  # (tick, 0 death | 1 dying, order, kind, name or entity)
    for id_, tick, target, source in con.execute(
            "SELECT id, tick, target_name_idx, damage_source_name_idx FROM combat_log_entries "
            "WHERE type = 4 ORDER BY id"):
        kind = WARD_TARGETS.get(names.get(target))
        if kind is not None and names.get(source) is not None:
            events.append((tick, 0, id_, kind, names[source]))
    wards = con.execute("SELECT e.entity, c.name FROM entities e JOIN classes c USING (class_id) "
                        "WHERE c.name IN (%s)" % ",".join("'%s'" % c for c in WARD_CLASSES))
    for entity, cls in wards.fetchall():
        before = None
        for tick, index, value in con.execute(
                "SELECT tick, ent_index, value FROM gem_changes WHERE entity = ? AND "
                "field = 'm_lifeState' ORDER BY tick", (entity,)):
            if value == 1 and before != 1:
                events.append((tick, 1, index, WARD_CLASSES[cls], entity))
                break
            before = value
    queues, out = {"observer": [], "sentry": []}, {}
    for tick, what, _, kind, item in sorted(events):
        if what == 0:
            queues[kind].append(item)
        else:
            out[item] = (1, queues[kind].pop(0)) if queues[kind] else (0, None)
    return out


class Smokes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.con, cls.truth, _, cls.counts = synthetic(vision=True)

    def test_windows_are_opendotas_and_gem_synths(self):
        rows = self.con.execute(
            "SELECT slot, start_id, start_tick, start_s, end_id, end_tick, end_s, kills_until_s "
            "FROM smoke_windows").fetchall()
        windows, _ = opendota(self.con)
        self.assertEqual({(r[0], r[1]): r[2:7] for r in rows}, windows)
        for r in rows:
            self.assertEqual(r[7], r[6] + LINGER_SECONDS)
        # gem-synth's windows: each hero's add and removal as written.
        self.assertEqual(sorted((r[0], r[2], r[5]) for r in rows),
                         sorted((t["slot"], t["start_tick"], t["end_tick"])
                                for t in self.truth["smoke_window"]))
        # What the match must hold for the rule to be tried: windows the
        # replay leaves open, a second ADD to a smoked hero and a REMOVE
        # with nothing open (the entries outnumber the windows' own).
        self.assertGreater(sum(1 for r in rows if r[4] is None), 0)
        entries = self.con.execute(
            "SELECT type, count(*) FROM combat_log c JOIN combat_log_names n "
            "ON n.idx = c.inflictor_name_idx WHERE n.name = ? GROUP BY type", (SMOKE,)).fetchall()
        entries = dict(entries)
        self.assertGreater(entries[2], len(rows))
        self.assertGreater(entries[3], sum(1 for r in rows if r[4] is not None))

    def test_kills_are_opendotas_and_gem_synths(self):
        rows = self.con.execute("SELECT id, tick, killer, victim, time_s, smoke FROM smoke_kills "
                                "ORDER BY id").fetchall()
        _, kills = opendota(self.con)
        self.assertEqual(rows, kills)
        self.assertEqual([(r[1], r[2], r[3], bool(r[5])) for r in rows],
                         [(t["tick"], t["killer"], t["victim"], t["smoke"])
                          for t in self.truth["smoke_kill"]])
        smoked = [r for r in rows if r[5]]
        self.assertGreater(len(smoked), 0)
        self.assertGreater(len(rows) - len(smoked), 0)
        # smoke_start_tick names a window of the killer that reaches the kill.
        starts = self.con.execute("SELECT s.id, s.smoke_start_tick, w.start_s, w.kills_until_s "
                                  "FROM smoke_kills s LEFT JOIN smoke_windows w ON w.slot = "
                                  "s.killer AND w.start_tick = s.smoke_start_tick").fetchall()
        times = {r[0]: r[4] for r in rows}
        for id_, start, start_s, until in starts:
            if start is None:
                continue
            self.assertLessEqual(start_s, times[id_])
            self.assertLessEqual(times[id_], until)

    @staticmethod
    def expected_smokes(con):
        """The smokes rows, (team, start_tick, start_s, end_s, heroes,
        slots, kills, victims), from the rule's windows and kills."""
        windows, kills = opendota(con)
        team = dict(con.execute("SELECT slot, team FROM players"))
        want = {}
        for (slot, _), w in windows.items():
            want.setdefault((team[slot], w[0]), []).append((slot, w))
        expected = []
        for (t, start_tick), members in sorted(want.items()):
            slots = sorted(s for s, _ in members)
            hits = [k for k in kills for s, w in members
                    if k[2] == s and k[4] is not None and w[1] <= k[4] <= w[4] + LINGER_SECONDS]
            hits.sort()
            expected.append((t, start_tick, min(w[1] for _, w in members),
                             max(w[4] for _, w in members), len(members),
                             "[" + ",".join(map(str, slots)) + "]", len(hits),
                             "[" + ",".join("null" if k[3] is None else str(k[3])
                                            for k in hits) + "]"))
        return expected

    def test_smokes_group_a_teams_windows_of_one_tick(self):
        expected = self.expected_smokes(self.con)
        rows = self.con.execute("SELECT team, start_tick, start_s, end_s, heroes, slots, kills, "
                                "victims FROM smokes ORDER BY team, start_tick").fetchall()
        self.assertEqual(rows, expected)
        self.assertEqual(len(rows), self.counts["smokes"])
        self.assertGreater(max(r[4] for r in rows), 1)


class Wards(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.con, cls.truth, _, _ = synthetic(vision=True)

    def test_killed_and_the_killer_are_opendotas_and_gem_synths(self):
        rows = self.con.execute("SELECT w.entity, e.ent_index, w.placed_tick, w.removed_tick, "
                                "w.killed, w.killer_name FROM wards w JOIN entities e "
                                "USING (entity)").fetchall()
        rule = opendota_wards(self.con)
        self.assertEqual({r[0]: (r[4], r[5]) for r in rows if r[4] is not None}, rule)
        truth = {(t["index"], t["placed_tick"]): t for t in self.truth["ward"]}
        self.assertEqual(len(truth), len(rows))
        for entity, index, placed, removed, killed, killer in rows:
            t = truth[(index, placed)]
            want = None if t["destroyed"] is None else int(t["destroyed"])
            self.assertEqual((removed, killed, killer), (t["removed_tick"], want, t["killer_name"]))
        # Both ways of going, heroes and creeps as destroyers, wards that stand.
        self.assertEqual({r[4] for r in rows}, {0, 1, None})
        self.assertTrue(any(k and k.startswith("npc_dota_hero") for *_, k in rows))
        self.assertTrue(any(k and k.startswith("npc_dota_creep") for *_, k in rows))

    def test_ward_lives_cap_the_lifetime_and_name_the_dewarder(self):
        duration = self.con.execute("SELECT duration_s FROM match_info").fetchone()[0]
        slot_of = {h: s for s, h in self.con.execute("SELECT slot, hero FROM players")}
        rows = self.con.execute("SELECT entity, kind, placed_tick, placed_time, removed_tick, "
                                "removed_time, lifetime_s, destroyed, dewarder, dewarder_name "
                                "FROM ward_lives").fetchall()
        wards = {r[0]: r for r in self.con.execute(
            "SELECT entity, kind, placed_tick, removed_tick, killed, killer_name FROM wards")}
        self.assertEqual(len(rows), len(wards))
        capped = 0
        for entity, kind, placed, placed_time, removed, removed_time, life, destroyed, \
                dewarder, name in rows:
            w = wards[entity]
            self.assertEqual((kind, placed, removed, destroyed, name),
                             (w[1], w[2], w[3], w[4], w[5]))
            # The clocks are gem-synth's game clock at those ticks.
            self.assertAlmostEqual(placed_time, clock(self.con, placed), places=3)
            if removed is not None:
                self.assertAlmostEqual(removed_time, clock(self.con, removed), places=3)
            lived = (removed_time if removed is not None else duration) - placed_time
            self.assertEqual(life, min(lived, CAPS[kind]))
            capped += lived > CAPS[kind]
            self.assertEqual(dewarder, slot_of.get(name) if name else None)
        self.assertGreater(capped, 0)


class WardFlaw(unittest.TestCase):
    def test_a_ward_that_ends_before_it_starts_has_no_lifetime(self):
        # gem-synth --flaws --vision: the pre-game names a horn 20 s before
        # the one that sounds, so the clock steps back 20 s at the horn; an
        # observer placed 10 s before the horn expires 5 s after it.
        con, truth, _, _ = synthetic(flaws=True, minutes=FLAW_MINUTES, vision=True)
        first = con.execute("SELECT first_tick FROM match_info").fetchone()[0]
        horn = first + 1200
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.assertEqual(int(meta["wards_ended_before_placed"]), 1)
        rows = con.execute("SELECT placed_tick, placed_time, removed_tick, removed_time, "
                           "lifetime_s, kind FROM ward_lives ORDER BY placed_tick").fetchall()
        self.assertEqual(len(rows), len(truth["ward"]))
        back = [r for r in rows if r[3] is not None and r[3] < r[1]]
        self.assertEqual(len(back), 1)
        placed, placed_time, removed, removed_time, life, kind = back[0]
        self.assertEqual((kind, removed - placed), ("observer", 450))
        self.assertTrue(horn - 300 <= placed < horn < removed)
        # By the pre-game's clock (its horn 20 s early), then the game's.
        self.assertAlmostEqual(placed_time, clock(con, placed) + 20, places=3)
        self.assertAlmostEqual(removed_time, clock(con, removed), places=3)
        self.assertIsNone(life)
        for r in rows:
            if r is not back[0] and r[4] is not None:
                self.assertGreaterEqual(r[4], 0)


class DocsQueries(unittest.TestCase):
    """docs/dota.md's smoke queries on the --vision match, against the
    rule computed here."""

    def test_each_query_answers_the_rule(self):
        blocks = docs_sql("dota.md", "## Smoke ganks", "## Ward lives")
        self.assertEqual(len(blocks), 2)
        con, _, _, _ = synthetic(vision=True)
        smokes, per_player = (con.execute(sql).fetchall() for sql in blocks)
        expected = sorted(Smokes.expected_smokes(con), key=lambda r: (r[1], r[0]))
        self.assertEqual(smokes, [(r[0], r[2], r[3] - r[2], r[4], r[6], r[7]) for r in expected])
        _, kills = opendota(con)
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        by = {}
        for k in kills:
            if k[2] is not None:
                n, s = by.get(k[2], (0, 0))
                by[k[2]] = (n + 1, s + k[5])
        self.assertEqual(per_player, [(heroes[s], n, m) for s, (n, m) in sorted(by.items())])
        self.assertGreater(sum(r[2] for r in per_player), 0)


    def test_the_ward_queries_answer_the_rule(self):
        blocks = docs_sql("dota.md", "## Ward lives", "## Per-minute series")
        self.assertEqual(len(blocks), 2)
        con, truth, _, _ = synthetic(vision=True)
        up, per_player = (con.execute(sql).fetchall() for sql in blocks)
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        wards = []
        for t in truth["ward"]:
            placed = clock(con, t["placed_tick"])
            removed = None if t["removed_tick"] is None else clock(con, t["removed_tick"])
            if round(placed, 3) <= 300 and (removed is None or round(removed, 3) > 300):
                wards.append(t)
        self.assertGreater(len(wards), 0)
        self.assertEqual([(r[0], r[1], r[2]) for r in up],
                         [(t["ward"], t["team"], heroes[t["owner"]])
                          for t in sorted(wards, key=lambda t: t["placed_tick"])])
        slot_of = {h: s for s, h in heroes.items()}
        dewards = {}
        for t in truth["ward"]:
            if t["killer_name"] in slot_of:
                dewards[slot_of[t["killer_name"]]] = dewards.get(slot_of[t["killer_name"]], 0) + 1
        self.assertEqual([(r[0], r[1]) for r in per_player],
                         [(heroes[s], dewards.get(s, 0)) for s in sorted(heroes)])
        self.assertGreater(sum(r[1] for r in per_player), 0)
        duration = con.execute("SELECT duration_s FROM match_info").fetchone()[0]
        for hero, _, life in per_player:
            lives = [min((duration if t["removed_tick"] is None else clock(con, t["removed_tick"]))
                         - clock(con, t["placed_tick"]), CAPS["observer"])
                     for t in truth["ward"]
                     if heroes[t["owner"]] == hero and t["ward"] == "observer"]
            if not lives:
                self.assertIsNone(life)
            else:
                self.assertAlmostEqual(life, sum(lives) / len(lives), delta=0.051)


class OnTheFixtures(unittest.TestCase):
    def test_the_views_are_the_rule_on_real_combat_logs(self):
        for stem in (AUTO, NEKIT):
            with self.subTest(stem):
                con = connect(need(stem))
                windows, kills = opendota(con)
                rows = con.execute("SELECT slot, start_id, start_tick, start_s, end_id, end_tick, "
                                   "end_s FROM smoke_windows").fetchall()
                self.assertEqual({(r[0], r[1]): r[2:] for r in rows}, windows)
                self.assertEqual(con.execute("SELECT id, tick, killer, victim, time_s, smoke "
                                             "FROM smoke_kills ORDER BY id").fetchall(), kills)
                self.assertEqual(dict(((e, (k, n)) for e, k, n in con.execute(
                    "SELECT entity, killed, killer_name FROM wards WHERE killed IS NOT NULL"))),
                    opendota_wards(con))


if __name__ == "__main__":
    junit.main()
