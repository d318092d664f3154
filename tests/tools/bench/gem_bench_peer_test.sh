#!/usr/bin/env bash
# gem-bench --peer's mechanics, not its timings: a binary peer runs as
# `PEER FILE.dem`, once more than --runs (the warm-up pair); the JSON has a
# pair per run, ratios whose median lies between their min and max, and
# both sides' peaks; a peer that fails, a replay gem cannot parse, a
# missing peer and --peer-only alone are reported, not crashed on; on a
# synthetic replay gem-index is paired with the peer as well.
set -u
bench="$TEST_SRCDIR/$TEST_WORKSPACE/tools/gem-bench"
checkout="$(dirname "$(dirname "$(dirname "$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/tests/support/workspace_anchor.txt")")")")"
fixtures="${GEM_FIXTURES:-$checkout/../shared/fixtures}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A peer that records how it was run and exits with $PEER_EXIT.
peer="$tmp/peer.sh"
cat > "$peer" <<'PEER'
#!/bin/sh
printf '%s\n' "$#:$*" >> "$PEER_LOG"
exit "${PEER_EXIT:-0}"
PEER
chmod +x "$peer"

"$bench" --peer "$tmp/no-such-peer" --peer-only --minutes '' x.dem >/dev/null 2>"$tmp/err"
[ $? -eq 66 ] || fail "a missing peer: expected exit 66"
"$bench" --peer-only --minutes '' x.dem >/dev/null 2>"$tmp/err"
[ $? -eq 64 ] || fail "--peer-only without --peer: expected exit 64"

nekit="$fixtures/dota2_haste_nekit.dem"
if [ ! -f "$nekit" ]; then
  echo "SKIPPED: fixture dota2_haste_nekit.dem not found in $fixtures"
  [ "$failures" -eq 0 ] || exit 1
  exit 0
fi
head -c 4096 /dev/urandom > "$tmp/junk.dem"

PEER_LOG="$tmp/log" PEER_EXIT=0 "$bench" --peer "$peer" --peer-only --json --runs 3 \
  --minutes '' "$nekit" "$tmp/junk.dem" > "$tmp/ok.json" 2>"$tmp/err" || fail "gem-bench exited $?"
[ "$(grep -c . "$tmp/log")" -eq 4 ] || fail "the peer ran $(grep -c . "$tmp/log") times, expected 3 + 1"
[ "$(sort -u "$tmp/log")" = "1:$nekit" ] || fail "the peer was run as: $(sort -u "$tmp/log")"
/usr/bin/python3 - "$tmp/ok.json" <<'PY' || failures=$((failures + 1))
import json, sys
rows = {r["replay"]: r for r in json.load(open(sys.argv[1]))["replays"]}
p = rows["dota2_haste_nekit.dem"]["peer"]
assert p["pairs"] == 3, p
assert 0 < p["wall_ratio_min"] <= p["wall_ratio"] <= p["wall_ratio_max"], p
assert p["gem_seconds"] > 0 and p["peer_seconds"] > 0, p
assert p["gem_peak_mib"] > 0 and p["peer_peak_mib"] > 0 and p["peak_ratio"] > 0, p
assert rows["junk.dem"]["peer"] == {"error": "gem-dump parse exited with 65"}, rows["junk.dem"]
PY

# On a synthetic replay gem-index is set against the peer too (the
# fixture a synthetic replay is written from must be there).
auto="$fixtures/dota2_haste_auto-20240102-2233-start.dem"
if [ -f "$auto" ]; then
  PEER_LOG="$tmp/log3" PEER_EXIT=0 "$bench" --peer "$peer" --peer-only --json --runs 2 \
    --no-fixtures --from "$auto" --work "$tmp/work" --minutes 0.2 > "$tmp/index.json" \
    2>"$tmp/err" || fail "gem-bench exited $? on a synthetic replay"
  [ "$(grep -c . "$tmp/log3")" -eq 6 ] ||
    fail "the peer ran $(grep -c . "$tmp/log3") times beside parse and index, expected 2 x (2 + 1)"
  /usr/bin/python3 - "$tmp/index.json" <<'PY' || failures=$((failures + 1))
import json, sys
rows = json.load(open(sys.argv[1]))["replays"]
assert len(rows) == 1 and rows[0]["replay"].startswith("synthetic-"), rows
p = rows[0]["index_peer"]
assert p["pairs"] == 2, p
assert 0 < p["wall_ratio_min"] <= p["wall_ratio"] <= p["wall_ratio_max"], p
assert p["gem_peak_mib"] > 0 and p["peer_peak_mib"] > 0, p
assert rows[0]["peer"]["pairs"] == 2, rows[0]
PY
  [ ! -e "$tmp/work/bench-peer-index.db" ] || fail "the index gem-index wrote was left behind"
else
  echo "SKIPPED (the synthetic part): fixture dota2_haste_auto-20240102-2233-start.dem not found"
fi

# demoparser2 (tools/bench/peers, installed by tools/setup.sh) on CS2
# replays only, in its two ways, and the binary peer on the others only;
# each goal names its replay and holds the figure measured for it.
dust="$fixtures/cs2_demofilenet_14155_de_dust2.dem"
if [ -f "$dust" ]; then
  PEER_LOG="$tmp/log4" PEER_EXIT=0 "$bench" --peer "$peer" --peer demoparser2 --peer-only --json \
    --runs 1 --minutes '' "$nekit" "$dust" > "$tmp/cs2.json" 2>"$tmp/err" ||
    { fail "gem-bench exited $? with demoparser2"; cat "$tmp/err"; }
  [ "$(sort -u "$tmp/log4")" = "1:$nekit" ] || fail "the binary peer ran on: $(sort -u "$tmp/log4")"
  /usr/bin/python3 - "$tmp/cs2.json" <<'PY' || failures=$((failures + 1))
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {r["replay"]: r for r in doc["replays"]}
dust = rows["cs2_demofilenet_14155_de_dust2.dem"]
assert dust["game"] == "cs2", dust
assert [p["peer"] for p in dust["peers"]] == ["demoparser2 ticks", "demoparser2 events"], dust
for p in dust["peers"]:
    c = p["parse"]
    assert c["pairs"] == 1 and c["gem_seconds"] > 0 and c["peer_seconds"] > 0, p
    assert c["peer_peak_mib"] > 0 and c["cpu_ratio"] > 0, p
nekit = rows["dota2_haste_nekit.dem"]
assert nekit["game"] == "dota2" and [p["peer"] for p in nekit["peers"]] == ["peer.sh"], nekit
goals = {(g["goal"], g["replay"]): g for g in doc["goals"]}
g = goals[("parse wall / haste", "dota2_haste_nekit.dem")]
assert g["measured"] and g["target"] == 0.8 and g["at_most"], g
assert abs(g["value"] - nekit["peer"]["wall_ratio"]) < 1e-3, (g, nekit["peer"])
assert g["met"] == (g["value"] <= 0.8), g
assert not any(r == "cs2_demofilenet_14155_de_dust2.dem" for (_, r) in goals), goals
PY
else
  echo "SKIPPED (the demoparser2 part): fixture cs2_demofilenet_14155_de_dust2.dem not found"
fi

PEER_LOG="$tmp/log2" PEER_EXIT=3 "$bench" --peer "$peer" --peer-only --runs 2 --minutes '' \
  "$nekit" > "$tmp/fail.txt" 2>"$tmp/err" || fail "gem-bench exited $? on a failing peer"
grep -q "dota2_haste_nekit.dem .*(peer exited with 3)" "$tmp/fail.txt" ||
  { fail "a failing peer is not reported:"; cat "$tmp/fail.txt"; }

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all gem-bench --peer checks passed"
