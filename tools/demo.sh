#!/usr/bin/env bash
# The main job on a fixture: sets up this machine, builds gem, indexes a
# replay (default: the Dota 2 fixture dota2_haste_auto-20240102-2233-start,
# a match under way: ten heroes on the map, a combat log) into an SQLite
# database, shows the match in it, and ends with what to try next.
#   bash tools/demo.sh [REPLAY[.dem|.dem.bz2|.dem.gz|.dem.zst] [OUT.db]]
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
fixtures="${GEM_FIXTURES:-../shared/fixtures}"
replay="${1:-$fixtures/dota2_haste_auto-20240102-2233-start.dem}"
name="$(basename "$replay")"
out="${2:-${name%%.dem*}.db}"
bazel build //indexer:gem-index //tools:gem-dump //sqlext:libgem.so >&2
bazel-bin/indexer/gem-index --force --stats "$replay" "$out" >&2
show() {  # title, SQL
  echo
  echo "$1"
  sqlite3 -header -column "$out" "$2"
}
echo
echo "$out: $(sqlite3 "$out" "SELECT group_concat(key || ' ' || value, ', ') FROM meta
  WHERE key IN ('game', 'game_build', 'map', 'match_id', 'last_tick', 'truncated')")"
show "The players and their heroes:" \
  "SELECT slot, team, name, hero FROM players ORDER BY slot"
show "Where they are and how they are, at the last sampled tick (the timeline):" \
  "SELECT tick, round(game_time, 1) AS game_time, slot, round(x) AS x, round(y) AS y,
          health, max_health FROM timeline
   WHERE tick = (SELECT max(tick) FROM timeline WHERE x IS NOT NULL) ORDER BY slot"
show "The combat log's last lines:" \
  "SELECT tick, type_name, attacker_name, target_name, inflictor_name, value
   FROM combat_log ORDER BY tick DESC, rowid DESC LIMIT 8"
echo
echo "Every hero's health and mana at tick 600, through the gem extension (gem_state):"
sqlite3 -header -column -cmd ".load bazel-bin/sqlext/libgem" "$out" \
  "SELECT h.class AS hero, h.value AS health, m.value AS mana
   FROM gem_state(600) h JOIN gem_state(600) m ON m.entity = h.entity AND m.field = 'm_flMana'
   WHERE h.field = 'm_iHealth' AND h.class LIKE 'CDOTA_Unit_Hero_%' ORDER BY hero"
cat <<NEXT

Try next:
  # the tables (.tables), then any SELECT:
  sqlite3 $out
  # the state at any tick, through the gem extension:
  sqlite3 -cmd '.load bazel-bin/sqlext/libgem' $out \\
    "SELECT class, value FROM gem_state(600) WHERE field = 'm_iHealth' LIMIT 5"
  # the match on a map, in a browser (gem-view prints its URL):
  tools/view/gem-view $out
  # a pandas DataFrame:
  /usr/bin/python3 -c 'import sys; sys.path.insert(0, "tools/python"); import gemdb; print(gemdb.frame("$out", "SELECT * FROM players"))'
  # a compressed replay, as Valve hands them out, indexes the same way:
  bzip2 -kc $replay > match.dem.bz2 && bazel-bin/indexer/gem-index match.dem.bz2 match.db
See README.md, then docs/: every table (docs/tables*.md), the SQL functions, gem-corpus and gem-view.
NEXT
