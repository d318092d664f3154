"""Which entities the map draws, by the class names each game's replays
use, and what they are (the page colours units by team and draws each kind
its own way). Display knowledge only: every value drawn comes from the
index (positions through the body component's cell and offset fields, as
gem_position reads them; teams, health and vision from the entity's own
fields)."""
import re

# (kind, pattern on the class name), first match wins.
KINDS = {
    "dota2": [
        ("hero", r"^CDOTA_Unit_Hero_"),
        ("ward", r"^CDOTA_NPC_Observer_Ward"),
        ("courier", r"^CDOTA_Unit_Courier$"),
        ("roshan", r"^CDOTA_Unit_Roshan$"),
        ("building", r"^CDOTA_BaseNPC_(Tower|Barracks|Fort|Building|Filler|Watch_Tower)$"),
        ("building", r"^CDOTA_Unit_Fountain$"),
        ("creep", r"^CDOTA_BaseNPC_Creep"),
        ("summon", r"^CDOTA_Unit_(SpiritBear|Broodmother_Spiderling|VisageFamiliar|Undying_Zombie)"),
    ],
    "cs2": [
        ("player", r"^CCSPlayerPawn$"),
        ("grenade", r"^C(SmokeGrenade|Flashbang|HEGrenade|Molotov|Decoy)Projectile$"),
        ("fire", r"^CInferno$"),
        ("bomb", r"^C(C4|PlantedC4)$"),
    ],
    "deadlock": [
        ("hero", r"^CCitadelPlayerPawn$"),
        ("mid_boss", r"^CNPC_MidBoss$"),
        ("urn", r"^CCitadelItemPickupIdol$"),
        ("objective", r"^CNPC_(TrooperBoss|TrooperBarrackBoss|Boss_Tier[23]|BaseDefenseSentry)$"),
        ("objective", r"^CCitadel_Destroyable_Building$"),
        ("neutral", r"^CNPC_(TrooperNeutral|Neutral_)"),
        ("trooper", r"^CNPC_Trooper"),
    ],
}

# The fields a frame reads of every unit (missing ones are simply absent).
POSITION = ["CBodyComponent.m_cellX", "CBodyComponent.m_cellY", "CBodyComponent.m_cellZ",
            "CBodyComponent.m_vecX", "CBodyComponent.m_vecY", "CBodyComponent.m_vecZ"]
FIELDS = POSITION + ["CBodyComponent.m_angRotation", "m_iTeamNum", "m_iHealth",
                     "m_iMaxHealth", "m_lifeState", "m_iDayTimeVisionRange", "m_iLane"]

# Analyst tables the page reads beside the map, per game, when the index
# has them: (table, ORDER BY). Fixed names, never the request's.
EVENT_TABLES = {
    "deadlock": [("urn", "tick, id"), ("objectives", "destroyed_tick, entity"),
                 ("patron_phases", "tick, id"), ("mid_boss", "tick, id")],
    "cs2": [("rounds", "round"), ("grenades", "id"), ("grenade_paths", "id, tick"),
            ("bomb", "tick, id")],
}

# Timeline columns the charts plot, per game, when the index has them.
CHARTS = {
    "dota2": ["net_worth", "xp", "gold"],
    "cs2": ["money", "equipment_value", "health"],
    "deadlock": ["souls", "player_damage", "health"],
}


def kind_of(game, class_name):
    for kind, pattern in _compiled(game):
        if pattern.search(class_name):
            return kind
    return None


_cache = {}


def _compiled(game):
    if game not in _cache:
        _cache[game] = [(k, re.compile(p)) for k, p in KINDS.get(game, [])]
    return _cache[game]
