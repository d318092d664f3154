"""Deadlock's message tables (core/deadlock/) on the real fixtures.

The damage table must hold one row per CCitadelUserMessage_Damage the
replay carries, in order, each value equal to the message's own field as
protoc decodes it (Google's decoder, from proto/citadel_usermessages.proto;
the payloads found by gem-dump trace --payload): not gem's hand-written
wire reader. Entities are named by index; their classes are those of the
entity live at that index before the message's packet is applied, from the
entities table. The ability and item names rest on Valve's string token,
checked here on the replay itself: every ability entity's m_nSubclassID is
the token of its EntityNames name."""
import os
import re
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from gemtest import GEM_DUMP, MODERN, RUNFILES, connect, f32, need, need_some, replay_path  # noqa: E402,E501

DEADLOCK = [s for s in MODERN if s.startswith("deadlock")]
PROTO_DIR = os.path.join(RUNFILES, "proto")
DAMAGE = 300
# The fixtures' Damage messages, as counted by gem-dump trace.
EXPECTED_COUNTS = {"deadlock_demofilenet_hltv_10423_dl_midtown": 0,
                   "deadlock_demofilenet_hltv_10524_new_player_basics": 12}


def messages(stem, msg_type):
    """(frame tick, payload bytes) of every inner message of the type, in
    the order the parser applies them."""
    out = subprocess.run([GEM_DUMP, "trace", "--payload", str(msg_type), replay_path(stem)],
                         capture_output=True, text=True, check=True).stdout
    found, tick = [], None
    for line in out.splitlines():
        parts = line.strip().split("\t")
        if parts[0] == "frame":
            tick = int(parts[3])
        elif parts[0] == "msg" and int(parts[1]) == msg_type:
            found.append((tick, bytes.fromhex(parts[3]) if len(parts) > 3 else b""))
    return found


def protoc_decode(message, payload):
    """The message's fields as protoc --decode prints them: {name: value}
    for scalars, {name: {x, y, z}} for vectors."""
    return protoc_decode_file("citadel_usermessages.proto", message, payload)


def protoc_decode_file(proto, message, payload):
    text = subprocess.run(["protoc", "--proto_path", PROTO_DIR,
                           "--decode=gem.proto." + message, proto],
                          input=payload, capture_output=True, check=True).stdout.decode()
    fields, stack = {}, [None]
    for line in text.splitlines():
        line = line.strip()
        if line.endswith("{"):
            stack.append(line[:-1].strip())
            fields[stack[-1]] = {}
        elif line == "}":
            stack.pop()
        else:
            name, value = line.split(": ", 1)
            if name.isdigit():
                continue  # a field the minimal .proto does not name
            value = value.strip('"') if value.startswith('"') else (
                value == "true" if value in ("true", "false") else float(value))
            (fields[stack[-1]] if stack[-1] else fields)[name] = value
    return fields


def murmur2_token(name):
    """Valve's CUtlStringToken: MurmurHash2 of the lower-cased name, seed
    0x31415926 (written here, independently of core/deadlock/messages.cc)."""
    data, m = name.lower().encode(), 0x5bd1e995
    h = (0x31415926 ^ len(data)) & 0xFFFFFFFF
    whole = len(data) // 4 * 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> 24
        k = (k * m) & 0xFFFFFFFF
        h = ((h * m) & 0xFFFFFFFF) ^ k
    tail = data[whole:]
    if tail:
        for i, b in enumerate(tail):
            h ^= b << (8 * i)
        h = (h * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    return h ^ (h >> 15)


class DamageTest(unittest.TestCase):
    def setUp(self):
        need_some(DEADLOCK)

    def test_one_row_per_message_with_its_values(self):
        for stem in DEADLOCK:
            with self.subTest(stem=stem):
                con = connect(need(stem))
                sent = messages(stem, DAMAGE)
                self.assertEqual(len(sent), EXPECTED_COUNTS[stem])
                rows = con.execute("SELECT * FROM damage ORDER BY id").fetchall()
                names = [d[0] for d in con.execute("SELECT * FROM damage").description]
                self.assertEqual(len(rows), len(sent))
                for (tick, payload), values in zip(sent, rows):
                    row = dict(zip(names, values))
                    m = protoc_decode("CCitadelUserMessage_Damage", payload)
                    self.check_row(con, tick, m, row)

    def check_row(self, con, tick, m, row):
        self.assertEqual(row["tick"], tick)
        plain = {"damage": "damage", "health_lost": "health_lost",
                 "health_after": "victim_health_new", "health_max": "victim_health_max",
                 "shield_after": "victim_shield_new", "shield_max": "victim_shield_max",
                 "hits": "hits", "hitgroup": "hitgroup_id", "type": "type",
                 "citadel_type": "citadel_type", "flags": "flags", "server_tick": "server_tick",
                 "ability_id": "ability_id", "attacker_entity": "entindex_attacker",
                 "victim_entity": "entindex_victim", "inflictor_entity": "entindex_inflictor"}
        for column, field in plain.items():
            want = m.get(field)
            self.assertEqual(row[column], None if want is None else int(want), column)
        floats = {"pre_damage": "pre_damage", "absorbed": "damage_absorbed",
                  "crit_damage": "crit_damage", "effectiveness": "effectiveness"}
        for column, field in floats.items():
            want = m.get(field)
            self.assertEqual(row[column], None if want is None else f32(want), column)
        self.assertEqual(row["secondary"], None if "is_secondary_stat" not in m
                         else int(m["is_secondary_stat"]))
        origin = m.get("origin", {})
        for axis in "xyz":
            want = origin.get(axis, 0.0) if "origin" in m else None
            self.assertEqual(row[axis], None if want is None else f32(want), axis)
        for who in ("attacker", "victim", "inflictor"):
            index = m.get("entindex_" + who)
            cls = self.class_before(con, int(index), tick) if index is not None else None
            self.assertEqual(row[who + "_class"], cls, who)
        for who in ("attacker", "victim"):
            cls = row[who + "_class"]
            if cls not in ("CCitadelPlayerPawn", "CCitadelPlayerController"):
                self.assertIsNone(row[who], who)
        self.assertGreater(row["damage"], 0)

    @staticmethod
    def class_before(con, index, tick):
        """The class of the entity at `index` before tick's packet."""
        found = con.execute(
            "SELECT c.name FROM entities e JOIN classes c USING (class_id) "
            "WHERE e.ent_index = ? AND e.created_tick < ? "
            "AND (e.deleted_tick IS NULL OR e.deleted_tick >= ?) "
            "ORDER BY e.created_tick DESC LIMIT 1", (index, tick, tick)).fetchone()
        return found[0] if found else None


class ModifiersTest(unittest.TestCase):
    """modifiers: one row per life of an ActiveModifiers entry, from the
    entries' history in string_table_entries, each value decoded by protoc
    (proto/modifier_entry.proto)."""

    def test_lives_of_the_entries(self):
        need_some(DEADLOCK)
        for stem in DEADLOCK:
            with self.subTest(stem=stem):
                con = connect(need(stem))
                history = con.execute(
                    "SELECT e.idx, e.tick, e.value FROM string_table_entries e "
                    "JOIN string_tables t USING (table_id) WHERE t.name = 'ActiveModifiers' "
                    "ORDER BY e.tick, e.seq").fetchall()
                lives, open_ = [], {}
                for idx, tick, value in history:
                    m = protoc_decode_file("modifier_entry.proto", "CModifierTableEntry",
                                           bytes(value))
                    serial = m.get("serial_number")
                    removed = m.get("entry_type", 1) == 2
                    life = open_.get(idx)
                    if life and (removed or serial is None or int(serial) != life["serial"]):
                        life["removed_tick"] = tick
                        lives.append(open_.pop(idx))
                    if removed or serial is None:
                        continue
                    if idx not in open_:
                        open_[idx] = {"tick": tick, "serial": int(serial), "removed_tick": None,
                                      "modifier_id": m.get("modifier_subclass"),
                                      "parent_handle": int(m.get("parent", 0xFFFFFF))}
                    life = open_[idx]
                    for column, field in (("stacks", "stack_count"),
                                          ("max_stacks", "max_stack_count")):
                        if field in m:
                            life[column] = int(m[field])
                    for column, field in (("duration", "duration"),
                                          ("last_applied", "last_applied_time")):
                        if field in m:
                            life[column] = f32(m[field])
                lives.extend(open_.values())
                self.assertGreater(len(lives), 40)
                got = con.execute(
                    "SELECT tick, serial, removed_tick, modifier_id, stacks, max_stacks, "
                    "duration, last_applied, parent, parent_class FROM modifiers").fetchall()
                want = []
                for life in lives:
                    index = life["parent_handle"] & 0x3FFF
                    cls = con.execute(
                        "SELECT c.name FROM entities e JOIN classes c USING (class_id) "
                        "WHERE e.handle = ?", (life["parent_handle"],)).fetchone()
                    want.append((life["tick"], life["serial"], life["removed_tick"],
                                 None if life["modifier_id"] is None else int(life["modifier_id"]),
                                 life.get("stacks"), life.get("max_stacks"),
                                 life.get("duration"), life.get("last_applied"),
                                 index if cls else None, cls[0] if cls else None))
                self.assertEqual(sorted(got, key=repr), sorted(want, key=repr))


class WorldObjectsTest(unittest.TestCase):
    """patron_phases and urn on the fixtures, against the entities' own
    fields read through the extension's change history (gem_changes), not
    the match layer."""

    def test_patron_phases_are_the_field_history(self):
        need_some(DEADLOCK)
        for stem in DEADLOCK:
            with self.subTest(stem=stem):
                con = connect(need(stem))
                got = con.execute("SELECT tick, entity, team, phase FROM patron_phases "
                                  "ORDER BY id").fetchall()
                want = []
                for entity, index in con.execute(
                        "SELECT entity, ent_index FROM entities JOIN classes USING (class_id) "
                        "WHERE name = 'CNPC_Boss_Tier3' ORDER BY created_tick, ent_index"):
                    last = None
                    for tick, phase in con.execute(
                            "SELECT tick, value FROM gem_changes WHERE entity = ? "
                            "AND field = 'm_ePhase' ORDER BY tick", (entity,)):
                        if phase != last:
                            team = con.execute("SELECT gem_value(?, 'm_iTeamNum', ?)",
                                               (entity, tick)).fetchone()[0]
                            want.append((tick, index, team, phase))
                        last = phase
                self.assertGreater(len(want), 1)
                self.assertEqual(sorted(got), sorted(want))

    def test_no_urn_rows_where_no_point_has_a_team(self):
        # Both fixtures are before the urn: every delivery point is disabled
        # with no team, and no modifier is the golden idol's.
        need_some(DEADLOCK)
        seen = 0
        for stem in DEADLOCK:
            with self.subTest(stem=stem):
                con = connect(need(stem))
                points = con.execute(
                    "SELECT count(*), total(gem_value(entity, 'm_bDisabled', last_tick)), "
                    "total(gem_value(entity, 'm_iTeamNum', last_tick) IN (2, 3)) "
                    "FROM entities JOIN classes USING (class_id), match_info "
                    "WHERE name = 'CCitadelIdolReturnTrigger'").fetchone()
                idols = con.execute("SELECT count(*) FROM modifiers WHERE ability_id = ?",
                                    (murmur2_token("ability_golden_idol"),)).fetchone()[0]
                self.assertEqual((points[1], points[2], idols), (points[0], 0, 0))
                self.assertEqual(con.execute("SELECT count(*) FROM urn").fetchone()[0], 0)
                seen += points[0]
        self.assertGreater(seen, 0)  # dl_midtown has six points


class NamesTest(unittest.TestCase):
    def test_ability_ids_are_string_tokens_of_entity_names(self):
        need_some(DEADLOCK)
        for stem in DEADLOCK:
            with self.subTest(stem=stem):
                con = connect(need(stem))
                names = dict(con.execute(
                    "SELECT e.idx, e.key FROM string_table_entries e JOIN string_tables t "
                    "USING (table_id) WHERE t.name = 'EntityNames' ORDER BY e.tick, e.seq"
                ).fetchall())
                checked = 0
                for entity, sub, index in con.execute(
                        "SELECT entity, gem_value(entity, 'm_nSubclassID', last_tick), "
                        "gem_value(entity, 'm_pEntity.m_nameStringableIndex', last_tick) "
                        "FROM entities e JOIN classes c USING (class_id), match_info "
                        "WHERE c.name LIKE '%Ability%' AND e.deleted_tick IS NULL"):
                    if sub is None or index is None or index < 0 or index not in names:
                        continue
                    self.assertEqual(sub & 0xFFFFFFFF, murmur2_token(names[index]),
                                     names[index])
                    checked += 1
                self.assertGreater(checked, 10)

    def test_modifiers_named_by_the_known_names_table(self):
        # known_names: each name's token as this file computes it; each
        # modifier life named by it where its modifier_id is there, else
        # NULL and counted.
        need_some(DEADLOCK)
        named = 0
        for stem in DEADLOCK:
            with self.subTest(stem=stem):
                con = connect(need(stem))
                known = {}
                for token, name, kind, source in con.execute(
                        "SELECT token, name, kind, source FROM known_names"):
                    self.assertEqual(token, murmur2_token(name), name)
                    self.assertIn(kind, ("item", "modifier"))
                    self.assertIn("vdata", source)
                    known[(token, kind)] = name
                self.assertGreater(len(known), 60)
                unknown = 0
                for modifier_id, modifier in con.execute(
                        "SELECT modifier_id, modifier FROM modifiers"):
                    want = known.get((modifier_id, "modifier"))
                    self.assertEqual(modifier, want, modifier_id)
                    unknown += want is None
                    named += want is not None
                meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
                self.assertEqual(int(meta.get("unknown_modifier_ids", 0)), unknown)
        # Real modifiers of the fixtures (the fountain's, combat status).
        self.assertGreater(named, 3)


if __name__ == "__main__":
    junit.main()
