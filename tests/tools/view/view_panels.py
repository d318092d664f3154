"""The checks of the match pages' issue-51 panels (view_page_test.py): each
figure the page shows against SQL written here over the index's views."""
import json


def check_vision(test, page, con, game_time_at):
    """The ward map's dewards and smoke routes over its first range, and
    the lane outcomes, as the views give them."""
    wards = page["wards"]
    inside = lambda tick: wards["from"] <= game_time_at(con, tick) <= wards["to"]  # noqa
    crossed = sum(1 for tick, x in con.execute(
        "SELECT placed_tick, x FROM ward_lives WHERE destroyed = 1") if x is not None and
        inside(tick))
    test.assertEqual(wards["crossed"], crossed)
    test.assertGreater(crossed, 0)
    rate = con.execute("SELECT tick_rate FROM match_info").fetchone()[0]
    smokes = [s for s in con.execute("SELECT start_tick, start_s, end_s, slots FROM smokes")
              if inside(s[0])]
    test.assertEqual(wards["routes"], len(smokes))
    test.assertGreater(len(smokes), 0)
    points = 0
    for start, start_s, end_s, slots in smokes:
        for slot in json.loads(slots):
            points += con.execute(
                "SELECT count(*) FROM timeline WHERE slot = ? AND tick BETWEEN ? AND ? "
                "AND x IS NOT NULL", (slot, start, start + (end_s - start_s) * rate))\
                .fetchone()[0]
    test.assertEqual(wards["points"], points)
    test.assertEqual(page["lanes"], [list(r) for r in con.execute(
        "SELECT lane, team, outcome, net_worth_diff FROM lane_outcomes ORDER BY lane, team")])
    test.assertEqual(len(page["lanes"]), 6)


def check_aim(test, page, con):
    """CS2's aim panel: each player's figures as the views give them."""
    want = {}
    for row in con.execute(
            "SELECT a.slot, a.time_to_damage_ms, a.crosshair_angle, a.rifle_counter_strafed, "
            "a.pistol_counter_strafed, a.first_bullet_accuracy, f.flashbangs, "
            "f.enemies_per_flash, h.damage_per_grenade, u.value_per_death FROM aim_stats a "
            "JOIN flash_stats f USING (slot) JOIN he_stats h USING (slot) "
            "JOIN utility_on_death u USING (slot) WHERE a.shots > 0 OR a.engagements > 0 "
            "OR f.flashbangs > 0 OR h.he_thrown > 0"):
        want[str(row[0])] = dict(zip(("ttd", "crosshair", "rifle_cs", "pistol_cs", "first",
                                      "flashes", "per_flash", "he", "death_utility"), row[1:]))
    test.assertEqual(page["aim"], want)
    test.assertTrue(any(v["ttd"] is not None for v in want.values()))
    test.assertTrue(any(v["rifle_cs"] is not None for v in want.values()))
    test.assertTrue(any(v["death_utility"] for v in want.values()))


def check_lane_leads(test, page, con):
    """Deadlock's lanes: each team's souls and lead at the marks, as
    lane_leads."""
    lanes = [list(r) for r in con.execute(
        "SELECT lane, team, souls_5, lead_5, souls_10, lead_10, souls_15, lead_15 "
        "FROM lane_leads ORDER BY lane, team")]
    test.assertEqual(page["lanes"], lanes)
    test.assertTrue(lanes and all(r[2] is not None for r in lanes))


def check_fights_and_souls(test, page, con):
    """Deadlock's teamfights and souls by source, as the table and the view
    give them."""
    fights = [[f, start, len(json.loads(slots)), damage, kills] for f, start, slots, damage, kills
              in con.execute("SELECT fight, start_tick, slots, hero_damage, kills FROM "
                             "teamfights ORDER BY fight")]
    test.assertEqual(page["teamfights"], fights)
    test.assertGreater(len(fights), 3)
    souls = {}
    for slot, source, n in con.execute("SELECT slot, source, souls FROM soul_sources "
                                       "WHERE souls > 0 ORDER BY slot, souls DESC, source"):
        souls.setdefault(str(slot), []).append([source, n])
    test.assertEqual(page["souls"], souls)
    test.assertGreater(len(souls), 5)
