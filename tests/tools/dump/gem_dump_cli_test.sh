#!/usr/bin/env bash
# gem-dump's command line: exit codes (sysexits), messages, output shapes.
set -u
dump="$TEST_SRCDIR/$TEST_WORKSPACE/tools/gem-dump"
checkout="$(dirname "$(dirname "$(dirname "$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/tests/support/workspace_anchor.txt")")")")"
fixtures="${GEM_FIXTURES:-$checkout/../shared/fixtures}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

expect_exit() {  # expected-code description command...
  local want="$1" what="$2"
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"; cat "$tmp/err"; failures=$((failures + 1))
  else
    echo "ok: $what (exit $got)"
  fi
}
expect_stderr() {  # pattern description
  if ! grep -q "$1" "$tmp/err"; then
    echo "FAIL: $2: stderr lacks '$1':"; cat "$tmp/err"; failures=$((failures + 1))
  fi
}

expect_exit 64 "no arguments" "$dump"
expect_exit 64 "unknown command" "$dump" frobnicate x.dem
expect_exit 0 "help" "$dump" --help
expect_exit 66 "missing input" "$dump" summary "$tmp/no-such-file.dem"
expect_stderr "no-such-file.dem" "missing input names the file"

printf 'not a replay at all\n' > "$tmp/junk.dem"
expect_exit 65 "junk" "$dump" summary "$tmp/junk.dem"
expect_stderr "not a Source 2 replay" "junk is called so"

: > "$tmp/empty.dem"
expect_exit 65 "empty file" "$dump" summary "$tmp/empty.dem"
expect_stderr "empty" "empty file is called so"

expect_exit 64 "verify without a replay" "$dump" verify
expect_exit 65 "verify of junk" "$dump" verify "$tmp/junk.dem"

printf 'HL2DEMO\0' > "$tmp/source1.dem"; head -c 2000 /dev/zero >> "$tmp/source1.dem"
expect_exit 65 "Source 1 demo" "$dump" summary "$tmp/source1.dem"
expect_stderr "Source 1" "Source 1 is called so"

if [ -f "$fixtures/dota2_haste_auto-20240102-2233-start.dem" ]; then
  expect_exit 0 "verify agrees" "$dump" verify "$fixtures/dota2_haste_auto-20240102-2233-start.dem"
  grep -q "^verify: 1 full packets checked: [0-9]* entities, [0-9]* field values, .*; 0 mismatches; 0 decode faults$" \
    "$tmp/out" || { echo "FAIL: verify's summary line"; cat "$tmp/out"; failures=$((failures + 1)); }
else
  echo "SKIPPED: fixture dota2_haste_auto-20240102-2233-start.dem not found in $fixtures"
fi
if [ -f "$fixtures/dota2_haste_nekit.dem" ]; then
  # nekit's second full update is two server ticks past the deltas: a
  # re-baseline, not a mismatch (see verify_test).
  expect_exit 0 "verify passes a client's recording" "$dump" verify "$fixtures/dota2_haste_nekit.dem"
  grep -q "^verify: 0 full packets checked: .*; 0 mismatches; 0 decode faults; 1 re-baseline (" "$tmp/out" ||
    { echo "FAIL: verify's re-baseline line"; cat "$tmp/out"; failures=$((failures + 1)); }
fi

# A compressed replay, and one through standard input, read as the plain
# file: the same summary, the same verify line.
auto="$fixtures/dota2_haste_auto-20240102-2233-start.dem"
if [ -f "$auto" ]; then
  gzip -c "$auto" > "$tmp/auto.dem.gz"
  zstd -q -c "$auto" > "$tmp/auto.dem.zst"
  expect_exit 0 "summary of the plain replay" "$dump" summary "$auto"
  cp "$tmp/out" "$tmp/plain-summary"
  expect_exit 0 "summary of a .dem.gz" "$dump" summary "$tmp/auto.dem.gz"
  cmp -s "$tmp/out" "$tmp/plain-summary" ||
    { echo "FAIL: a .dem.gz's summary differs"; diff "$tmp/plain-summary" "$tmp/out" | head; failures=$((failures + 1)); }
  "$dump" summary - <"$tmp/auto.dem.zst" >"$tmp/out" 2>"$tmp/err"
  cmp -s "$tmp/out" "$tmp/plain-summary" ||
    { echo "FAIL: a .dem.zst's summary through stdin differs"; cat "$tmp/err"; failures=$((failures + 1)); }
  expect_exit 0 "verify of a .dem.zst" "$dump" verify "$tmp/auto.dem.zst"
  grep -q "; 0 mismatches; 0 decode faults$" "$tmp/out" || { echo "FAIL: verify of a .dem.zst"; failures=$((failures + 1)); }
  head -c 300000 "$tmp/auto.dem.gz" > "$tmp/cut.dem.gz"
  expect_exit 0 "summary of a cut .dem.gz" "$dump" summary "$tmp/cut.dem.gz"
  expect_stderr "the gzip stream is cut at byte 300000 of the compressed file" "a cut stream says where"
fi

if [ -f "$fixtures/dota2_haste_nekit.dem" ]; then
  expect_exit 0 "summary" "$dump" summary "$fixtures/dota2_haste_nekit.dem"
  for key in game game_build header_build_num header_map final_tick demo_packets \
             full_packets entities_final string_tables combatlog_total truncated; do
    grep -q "^$key	" "$tmp/out" || { echo "FAIL: summary lacks $key"; failures=$((failures + 1)); }
  done
  grep -q "^entities_final	78$" "$tmp/out" || { echo "FAIL: nekit has 78 entities at the end"; failures=$((failures + 1)); }
  grep -q "^truncated	false$" "$tmp/out" || { echo "FAIL: nekit is whole"; failures=$((failures + 1)); }

  expect_exit 0 "state" "$dump" state --ticks 600 "$fixtures/dota2_haste_nekit.dem"
  /usr/bin/python3 - "$tmp/out" <<'PY' || failures=$((failures + 1))
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ticks = sorted({r["req_tick"] for r in rows})
assert ticks == [600, 4294967295], ticks
for r in rows:
    for k in ("req_tick", "tick", "index", "serial", "class", "fields"):
        assert k in r, k
    for f in r["fields"]:
        assert set(f) >= {"path", "name", "type", "v"}, f
print("ok: state emits", len(rows), "entity lines")
PY
  expect_exit 64 "state with a bad tick list" "$dump" state --ticks 1,x "$fixtures/dota2_haste_nekit.dem"

  # Cut inside the play: read up to the cut, exit 0, say so.
  head -c 400000 "$fixtures/dota2_haste_nekit.dem" > "$tmp/cut.dem"
  expect_exit 0 "truncated replay" "$dump" summary "$tmp/cut.dem"
  expect_stderr "read up to the cut" "truncation is reported"
  grep -q "^truncated	true$" "$tmp/out" || { echo "FAIL: truncated flag"; failures=$((failures + 1)); }
  # Cut inside the signon: refused.
  head -c 3000 "$fixtures/dota2_haste_nekit.dem" > "$tmp/early.dem"
  expect_exit 65 "cut in the signon" "$dump" summary "$tmp/early.dem"
else
  echo "SKIPPED: fixture dota2_haste_nekit.dem not found in $fixtures"
fi

if [ -f "$fixtures/dota2_sange2014_test_xanadu.dem" ]; then
  expect_exit 65 "legacy 2014 replay" "$dump" summary "$fixtures/dota2_sange2014_test_xanadu.dem"
  expect_stderr "legacy replay not supported" "legacy is called so"
fi

if [ -f "$fixtures/dota2_haste_auto-20240102-2233-start.dem" ]; then
  expect_exit 0 "combatlog" "$dump" combatlog "$fixtures/dota2_haste_auto-20240102-2233-start.dem"
  n=$(wc -l < "$tmp/out")
  [ "$n" -eq 36 ] || { echo "FAIL: 36 combat log lines, got $n"; failures=$((failures + 1)); }
  expect_exit 0 "strings" "$dump" strings "$fixtures/dota2_haste_auto-20240102-2233-start.dem"
  head -1 "$tmp/out" | grep -q "^table	entry_index	key	value_len	value_crc32$" || { echo "FAIL: strings header"; failures=$((failures + 1)); }
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all gem-dump command-line checks passed"
