"""Deadlock's teamfights by boon's rule (boon.stats.teamfights), computed
apart from gem's C++: over the damage and kills tables, the players' teams,
and each pawn's position from the extension's gem_position (the stored
field changes), not from the parse."""
import json

GAP_SECONDS = 5.0
RADIUS = 1500.0
MIN_HEROES = 3


def pawn_at(con, slot, tick):
    """The player's pawn entity at `tick`: their timeline's last one by
    then, else the players table's."""
    row = con.execute("SELECT entity FROM timeline WHERE slot = ? AND tick <= ? "
                      "AND entity IS NOT NULL ORDER BY tick DESC LIMIT 1", (slot, tick)).fetchone()
    if row is None:
        row = con.execute("SELECT pawn FROM players WHERE slot = ?", (slot,)).fetchone()
    return row[0] if row else None


def position(con, slot, tick):
    entity = pawn_at(con, slot, tick)
    if entity is None:
        return None
    got = con.execute("SELECT gem_position(?, ?)", (entity, tick)).fetchone()[0]
    if got is None:
        return None
    x, y, _ = json.loads(got)
    return None if x is None or y is None else (x, y)


def teamfights_by_the_rule(con):
    """The teamfights table's rows by the rule: (fight, start_tick,
    end_tick, start_time, end_time, x, y, heroes, slots, events,
    hero_damage, kills)."""
    interval = float(con.execute("SELECT value FROM meta WHERE key = 'tick_interval'").fetchone()[0])
    gap = max(1, round(GAP_SECONDS / interval))
    teams = dict(con.execute("SELECT slot, team FROM players"))
    events = []
    for tick, game_time, attacker, victim, damage in con.execute(
            "SELECT tick, game_time, attacker, victim, damage FROM damage "
            "WHERE attacker IS NOT NULL AND victim IS NOT NULL AND attacker <> victim "
            "ORDER BY tick, id"):
        if teams.get(attacker) is None or teams.get(victim) is None:
            continue
        if teams[attacker] == teams[victim]:
            continue
        at = position(con, victim, tick) or position(con, attacker, tick)
        if at is None:
            continue
        events.append((tick, game_time, attacker, victim, damage or 0, at))
    fights, active, last_of_victim = [], [], {}
    for tick, game_time, attacker, victim, damage, (x, y) in events:
        active = [f for f in active if tick - f["end_tick"] <= gap]
        best, best_d = None, RADIUS * RADIUS
        for f in active:
            d = (x - f["cx"]) ** 2 + (y - f["cy"]) ** 2
            if d <= best_d:
                best, best_d = f, d
        if best is None:
            best = {"start_tick": tick, "start_time": game_time, "cx": x, "cy": y, "n": 0,
                    "xs": [], "ys": [], "heroes": set(), "damage": 0, "kills": 0}
            fights.append(best)
            active.append(best)
        best["n"] += 1
        best["end_tick"], best["end_time"] = tick, game_time
        best["cx"] += (x - best["cx"]) / best["n"]
        best["cy"] += (y - best["cy"]) / best["n"]
        best["xs"].append(x)
        best["ys"].append(y)
        best["heroes"] |= {attacker, victim}
        best["damage"] += damage
        last_of_victim.setdefault(victim, []).append((tick, best))
    # A kill goes to the fight of its victim's last event at or before it.
    for tick, victim in con.execute("SELECT tick, victim FROM kills"):
        before = [f for t, f in last_of_victim.get(victim, []) if t <= tick]
        if before:
            before[-1]["kills"] += 1
    kept = sorted((f for f in fights if len(f["heroes"]) >= MIN_HEROES),
                  key=lambda f: f["start_tick"])
    return [(i + 1, f["start_tick"], f["end_tick"], f["start_time"], f["end_time"],
             sum(f["xs"]) / f["n"], sum(f["ys"]) / f["n"], len(f["heroes"]),
             json.dumps(sorted(f["heroes"]), separators=(",", ":")), f["n"], f["damage"],
             f["kills"]) for i, f in enumerate(kept)]
