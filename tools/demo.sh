#!/usr/bin/env bash
# The main job on a fixture: sets up this machine, builds gem, indexes a
# replay (default: the Dota 2 fixture dota2_haste_nekit.dem) into an SQLite
# database and shows what is in it.
#   bash tools/demo.sh [REPLAY.dem [OUT.db]]
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
fixtures="${GEM_FIXTURES:-../shared/fixtures}"
replay="${1:-$fixtures/dota2_haste_nekit.dem}"
out="${2:-$(basename "${replay%.dem}").db}"
bazel build //indexer:gem-index //tools:gem-dump >&2
bazel-bin/indexer/gem-index --force --stats "$replay" "$out"
echo
echo "$out:"
sqlite3 -header -column "$out" \
  "SELECT key, value FROM meta WHERE key IN ('game','game_build','map','match_id','last_tick','field_changes','truncated');" \
  "SELECT c.name AS class, count(*) AS alive_at_end FROM entities e JOIN classes c USING(class_id)
     WHERE e.deleted_tick IS NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 5;" \
  "SELECT game, map, tick_rate, first_tick, last_tick, start_tick FROM match_info;" \
  "SELECT slot, team, name, hero FROM players ORDER BY slot;" \
  "SELECT tick, game_time, slot, x, y, health FROM timeline
     WHERE tick = (SELECT max(tick) FROM timeline) ORDER BY slot LIMIT 10;"
