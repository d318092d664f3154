"""The rules of Dota's second-question tables (core/dota/lanes.h,
player_events.h, hero_deaths.h, pauses.h, player_views.h), written again
here, apart from gem's code, over an index's raw fields, chat events and
combat log, or over gem-synth's truth: what dota_activity_test holds the
tables to."""
import math

MULTI_KILL_TICKS = 18 * 30
LANING = ["last_hits", "denies", "net_worth", "xp"]


def lane_of_cell(cx, cy):
    """OpenDota's lane map (odota/core laneMappings, as getLaneFromPosData
    reads it: row 192 - y, column x - 64): 1 bot, 2 mid, 3 top, 4 Radiant
    jungle, 5 Dire jungle; 0 off the grid."""
    row, col = 192 - cy, cx - 64
    if not (0 <= row < 128 and 0 <= col < 128):
        return 0
    if abs(row - (127 - col)) < 8:
        return 2
    if col < 27 or row < 27:
        return 3
    if col >= 100 or row >= 100:
        return 1
    if row < 50:
        return 5
    if row >= 77:
        return 4
    return 2


def opendota_lanes(con):
    """{slot: (team, lane, role, roaming, samples, lane_samples)} by
    OpenDota's rule over each timeline sample's hero cell and offset fields
    (cellX + vecX / 128, rounded halves up), game_time <= 600."""
    cells, teams = {}, {}
    for slot, tick, entity, team, game_time in con.execute(
            "SELECT slot, tick, entity, team, game_time FROM timeline ORDER BY slot, tick"):
        if game_time is None or game_time > 600:
            continue
        cells.setdefault(slot, {})
        if team is not None:
            teams[slot] = team
        v = [con.execute("SELECT gem_value(?, ?, ?)", (entity, "CBodyComponent.m_" + f, tick))
             .fetchone()[0] for f in ("cellX", "vecX", "cellY", "vecY")]
        if entity is None or None in v:
            continue
        key = (math.floor(v[0] + v[1] / 128 + 0.5), math.floor(v[2] + v[3] / 128 + 0.5))
        cells[slot][key] = cells[slot].get(key, 0) + 1
    out = {}
    for slot, counted in cells.items():
        lanes = []
        for (cx, cy) in sorted(counted):
            lane = lane_of_cell(cx, cy)
            if lane:
                lanes += [lane] * counted[(cx, cy)]
        seen, best, mode = {}, 0, None
        for lane in lanes:
            seen[lane] = seen.get(lane, 0) + 1
            if seen[lane] > best:
                best, mode = seen[lane], lane
        team = teams.get(slot)
        role = None
        if mode and team in (2, 3):
            role = {1: 1 if team == 2 else 3, 2: 2, 3: 3 if team == 2 else 1, 4: 4, 5: 4}[mode]
        roaming = None if mode is None else int(best / len(lanes) < 0.45)
        out[slot] = (team, mode, role, roaming, len(lanes), best if mode else None)
    return out


def life_spans(con):
    """[(tick, slot, state, respawn_tick)] from each hero's m_lifeState
    changes after its creation: a span opens when it leaves 0, closes when
    it is 0 again."""
    spans = []
    for slot, entity in con.execute("SELECT DISTINCT slot, entity FROM timeline "
                                    "WHERE entity IS NOT NULL ORDER BY slot, entity"):
        created = con.execute("SELECT created_tick FROM entities WHERE entity = ?",
                              (entity,)).fetchone()[0]
        open_ = None
        for tick, value in con.execute("SELECT tick, value FROM gem_changes WHERE entity = ? "
                                       "AND field = 'm_lifeState' ORDER BY tick", (entity,)):
            if tick <= created:
                continue
            if value != 0 and open_ is None:
                open_ = (tick, value)
            elif value == 0 and open_ is not None:
                spans.append((open_[0], slot, open_[1], tick))
                open_ = None
        if open_ is not None:
            spans.append((open_[0], slot, open_[1], None))
    return sorted(spans)


def pause_spans(con):
    """[(tick, end_tick, slot)]: the game rules' m_bGamePaused spans,
    each with the player of the last CHAT_MESSAGE_PAUSED before its end
    and after the pause before."""
    rules = con.execute("SELECT entity FROM entities JOIN classes USING (class_id) "
                        "WHERE name = 'CDOTAGamerulesProxy'").fetchone()
    if rules is None:
        return []
    paused = [(t, p[0] if p and p[0] >= 0 else None) for t, p in (
        (t, [int(x) for x in ids.strip("[]").split(",")]) for t, ids in con.execute(
            "SELECT tick, player_ids FROM chat_events WHERE type = 34 ORDER BY id"))]
    spans, start, last_end = [], None, -1
    for tick, value in con.execute("SELECT tick, value FROM gem_changes WHERE entity = ? AND "
                                   "field = 'm_pGameRules.m_bGamePaused' ORDER BY tick", rules):
        if value and start is None:
            start = tick
        elif not value and start is not None:
            by = [p for t, p in paused if last_end < t <= tick]
            spans.append((start, tick, by[-1] if by else None))
            start, last_end = None, tick
    if start is not None:
        by = [p for t, p in paused if t > last_end]
        spans.append((start, None, by[-1] if by else None))
    return spans


def uses(con, kind):
    """[(tick, slot, inflictor, target, target_hero, target_illusion)]:
    the combat log's rows of `kind` (5 abilities, 6 items) whose attacker
    is a player's hero."""
    return con.execute(
        "SELECT c.tick, p.slot, i.name, t.name, CASE WHEN t.name IS NULL THEN NULL ELSE "
        "coalesce(c.is_target_hero, 0) END, CASE WHEN t.name IS NULL THEN NULL ELSE "
        "coalesce(c.is_target_illusion, 0) END FROM combat_log_entries c "
        "JOIN combat_log_names a ON a.idx = c.attacker_name_idx "
        "JOIN players p ON p.hero = a.name "
        "LEFT JOIN combat_log_names i ON i.idx = c.inflictor_name_idx "
        "LEFT JOIN combat_log_names t ON t.idx = c.target_name_idx "
        "WHERE c.type = ? ORDER BY c.id", (kind,)).fetchall()


def rule_streaks(kills):
    """The game's rule over [(tick, killer, victim)] in order: multi-kill
    rows (tick, slot, kills) from a multi-kill's second kill (kills 18 s or
    less apart) and streak rows (tick, slot, streak) from a streak's third
    kill (reset when the player dies)."""
    last, multi, streak, multis, streaks = {}, {}, {}, [], []
    for tick, killer, victim in kills:
        streak[victim] = 0
        if killer in last and tick - last[killer] <= MULTI_KILL_TICKS:
            multi[killer] += 1
        else:
            multi[killer] = 1
        last[killer] = tick
        streak[killer] = streak.get(killer, 0) + 1
        if multi[killer] >= 2:
            multis.append((tick, killer, multi[killer]))
        if streak[killer] >= 3:
            streaks.append((tick, killer, streak[killer]))
    return multis, streaks


def kind_of(name, illusion):
    """OpenDota's tests of a `killed` key (odota/core computeMatchData)."""
    if name.startswith("npc_dota_hero"):
        return "illusion" if illusion else "hero"
    for kind, parts in (("lane_creep", ["creep_goodguys", "creep_badguys"]),
                        ("observer", ["observer"]), ("sentry", ["sentry"]),
                        ("tower", ["_tower"]), ("barracks", ["_rax_"]), ("fort", ["_fort"]),
                        ("courier", ["courier"]), ("roshan", ["roshan"]),
                        ("necronomicon", ["necronomicon"])):
        if any(p in name for p in parts):
            return kind
    return "neutral" if name.startswith("npc_dota_neutral") else "other"


def death_credits(con, combat):
    """(kills_by_kind, killed_by) as dicts, from the combat truth's deaths
    by OpenDota's handleDeathCombat: reincarnations and suicides left out,
    the damage source credited."""
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
    by_kind, killed_by = {}, {}
    for c in combat:
        if c.get("type") != 4 or c.get("will_reincarnate"):
            continue
        target, source = names.get(c.get("target_name")), names.get(c.get("damage_source_name"))
        if target is None or source is None:
            continue
        if names.get(c.get("attacker_name")) == target and not c.get("is_attacker_illusion"):
            continue
        if source in slot_of and target != source:
            key = (slot_of[source], kind_of(target, c.get("is_target_illusion")))
            by_kind[key] = by_kind.get(key, 0) + 1
        if target in slot_of and c.get("is_target_hero") and not c.get("is_target_illusion"):
            key = (slot_of[target], source)
            killed_by[key] = killed_by.get(key, 0) + 1
    return by_kind, killed_by


def expected_laning(con, truth):
    """{slot: (tick, lane, roaming, [last_hits, denies, net_worth, xp],
    opponent)} at the timeline's last sample by 10:00, from gem-synth's
    player truth there and the lanes table."""
    tick = con.execute("SELECT max(tick) FROM timeline WHERE game_time <= 600").fetchone()[0]
    at10 = {p["slot"]: p for p in truth["player"] if p["tick"] == tick}
    lanes = {r[0]: r[1:] for r in con.execute("SELECT slot, team, lane, is_roaming FROM lanes")}
    out = {}
    for slot, (team, lane, roaming) in lanes.items():
        rivals = [s for s, (t, ln, ro) in lanes.items()
                  if t != team and ln == lane and lane in (1, 2, 3) and not ro and not roaming]
        rival = min(rivals, key=lambda s: (-at10[s]["net_worth"], s)) if rivals else None
        out[slot] = (tick, lane, roaming, [at10[slot][c] for c in LANING], rival)
    return out, at10


def streak_entries(con, combat, kind):
    """[(tick, slot, value)] of the combat truth's entries of `kind` (15
    multi-kills, 16 streaks)."""
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
    return [(c["tick"], slot_of[names[c["attacker_name"]]], c["value"])
            for c in combat if c.get("type") == kind]
