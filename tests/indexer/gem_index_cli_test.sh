#!/usr/bin/env bash
# gem-index's command line: exit codes, bad input, truncated replays, and
# the rule that OUT.db is either a whole index or untouched, with no
# temporary file left behind.
set -u
gi="$TEST_SRCDIR/$TEST_WORKSPACE/indexer/gem-index"
checkout="$(dirname "$(dirname "$(dirname "$(readlink -f "$TEST_SRCDIR/$TEST_WORKSPACE/tests/support/workspace_anchor.txt")")")")"
fixtures="${GEM_FIXTURES:-$checkout/../shared/fixtures}"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/gemidx.XXXXXX")"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

run() {  # expected-code description args...
  local want="$1" what="$2"
  shift 2
  "$gi" "$@" >"$work/out" 2>"$work/err"
  local got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$what: exit $got, expected $want"; sed 's/^/    /' "$work/err"
  else
    echo "ok: $what (exit $got)"
  fi
  return 0
}
no_leftovers() {  # dir description
  local left
  left=$(find "$1" -maxdepth 1 -name '.*gem-tmp*' | head -3)
  [ -z "$left" ] || fail "$2: temporary files left: $left"
}

run 64 "no arguments"
run 64 "one argument" x.dem
run 64 "unknown option" --frobnicate a.dem b.db
run 0 "help" --help
grep -q "usage: gem-index" "$work/out" || fail "help prints usage"
run 0 "version" --version
grep -q "gem-index" "$work/out" || fail "version names the tool"
schema=$(sed -n 's/.*index schema \([0-9][0-9]*\).*/\1/p' "$work/out")
for step in 0 -3 abc 1.5 "" 99999999999999999999; do
  run 64 "--timeline-step '$step'" --timeline-step "$step" x.dem "$work/step.db"
  grep -q -- "--timeline-step needs a whole number" "$work/err" || fail "step '$step': no message"
  [ -e "$work/step.db" ] && fail "step '$step': an output was created"
done
run 64 "--timeline-step without a value" x.dem "$work/step.db" --timeline-step
for v in -1 abc "" nan 1e7 "2 "; do
  run 64 "--keyframe-seconds '$v'" --keyframe-seconds "$v" x.dem "$work/kf.db"
  grep -q -- "--keyframe-seconds needs a number of seconds" "$work/err" || fail "keyframe seconds '$v': no message"
done
for v in -1 1.5 1001 abc; do
  run 64 "--keyframe-logged '$v'" --keyframe-logged "$v" x.dem "$work/kf.db"
  grep -q -- "--keyframe-logged needs a whole number" "$work/err" || fail "keyframe logged '$v': no message"
done
[ -e "$work/kf.db" ] && fail "a bad keyframe option created an output"
run 66 "missing input" "$work/nope.dem" "$work/nope.db"
[ -e "$work/nope.db" ] && fail "missing input created an output"

mkdir -p "$work/bad"
printf 'not a replay\n' > "$work/bad/junk.dem"
: > "$work/bad/empty.dem"
printf 'PBDEMS2\0' > "$work/bad/magic.dem"
{ printf 'HL2DEMO\0'; head -c 1064 /dev/zero; } > "$work/bad/source1.dem"
for f in junk empty magic source1; do
  run 65 "bad input: $f" "$work/bad/$f.dem" "$work/bad/$f.db"
  [ -e "$work/bad/$f.db" ] && fail "$f: an output was created"
  no_leftovers "$work/bad" "$f"
done
grep -q "Source 1" "$work/err" || fail "Source 1 is named as such"

if [ ! -f "$fixtures/dota2_haste_nekit.dem" ]; then
  echo "SKIPPED: fixture dota2_haste_nekit.dem not found in $fixtures"
else
  nekit="$fixtures/dota2_haste_nekit.dem"
  run 0 "index nekit" --quiet "$nekit" "$work/nekit.db"
  [ "$(sqlite3 "$work/nekit.db" "pragma user_version")" = "$schema" ] ||
    fail "--version says index schema $schema, the index is $(sqlite3 "$work/nekit.db" "pragma user_version")"
  [ "$(sqlite3 "$work/nekit.db" "select value from meta where key='truncated'")" = "0" ] ||
    fail "whole replay flagged truncated"
  # The replay's checksum is coreutils' sha256sum of it.
  [ "$(sqlite3 "$work/nekit.db" "select value from meta where key='source_sha256'")" = \
    "$(sha256sum "$nekit" | cut -d' ' -f1)" ] || fail "meta.source_sha256 is not the replay's SHA-256"

  # An existing output is refused without --force and left untouched.
  sum_before=$(sha256sum "$work/nekit.db" | cut -d' ' -f1)
  run 73 "existing output without --force" "$nekit" "$work/nekit.db"
  [ "$(sha256sum "$work/nekit.db" | cut -d' ' -f1)" = "$sum_before" ] || fail "existing output changed"
  echo "keep me" > "$work/precious.db"
  run 73 "existing non-index output" "$nekit" "$work/precious.db"
  [ "$(cat "$work/precious.db")" = "keep me" ] || fail "precious.db was touched"
  run 0 "--force replaces" --force --quiet "$nekit" "$work/precious.db"
  [ "$(sqlite3 "$work/precious.db" "pragma application_id")" = "$(printf %d 0x47454D31)" ] ||
    fail "--force did not write an index"

  # Outputs that cannot be created.
  run 73 "output in a missing directory" "$nekit" "$work/no/such/dir/x.db"
  mkdir -p "$work/adir.db"
  run 73 "output is a directory" "$nekit" "$work/adir.db"

  # Cut after the signon: indexed up to the cut, flagged.
  size=$(stat -c %s "$nekit")
  for frac in 40 55 70 85 99; do
    cut=$((size * frac / 100))
    head -c "$cut" "$nekit" > "$work/cut.dem"
    rm -f "$work/cut.db"
    run 0 "cut at $frac%" "$work/cut.dem" "$work/cut.db"
    [ "$(sqlite3 "$work/cut.db" "select value from meta where key='truncated'")" = "1" ] ||
      fail "cut at $frac% not flagged truncated"
    grep -q "truncated" "$work/err" || fail "cut at $frac%: no notice on stderr"
  done
  # Cut early (inside the signon): refused cleanly.
  for cut in 10 100 5000 60000; do
    head -c "$cut" "$nekit" > "$work/early.dem"
    rm -f "$work/early.db"
    run 65 "cut early at byte $cut" "$work/early.dem" "$work/early.db"
    [ -e "$work/early.db" ] && fail "cut early at $cut: output created"
  done
  no_leftovers "$work" "cuts"

  # Flipped bytes: a clean exit code (0 or 65), never a signal.
  for i in 1 2 3 4 5 6 7 8; do
    cp "$nekit" "$work/flip.dem"
    at=$(( (size / 9) * i + 123 ))
    printf '\xA5' | dd of="$work/flip.dem" bs=1 seek="$at" conv=notrunc status=none
    rm -f "$work/flip.db"
    timeout 60 "$gi" --quiet "$work/flip.dem" "$work/flip.db" >/dev/null 2>"$work/err"
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 65 ]; then
      fail "flip at $at: exit $rc"; sed 's/^/    /' "$work/err"
    fi
    if [ "$rc" -ne 0 ] && [ -e "$work/flip.db" ]; then fail "flip at $at: failed but left an output"; fi
  done
  echo "ok: flipped bytes"
  no_leftovers "$work" "flips"

  # Writing fails (file size limit): 74, nothing left behind.
  rm -f "$work/full.db"
  # (SIGXFSZ left at its default: gem-index must not be killed by it.)
  ( ulimit -f 64; exec "$gi" --quiet "$nekit" "$work/full.db" ) >/dev/null 2>"$work/err"
  rc=$?
  [ "$rc" -eq 74 ] || { fail "disk full: exit $rc, expected 74"; sed 's/^/    /' "$work/err"; }
  [ -e "$work/full.db" ] && fail "disk full: output created"
  no_leftovers "$work" "disk full"
  echo "ok: write failure"

  # A signal mid-run leaves nothing behind.
  big="$fixtures/dota2_haste_auto-20240102-2233-start.dem"
  if [ -f "$big" ]; then
    "$gi" --quiet "$big" "$work/sig.db" & pid=$!
    sleep 0.02; kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    if [ -e "$work/sig.db" ]; then
      [ "$(sqlite3 "$work/sig.db" "select value from meta where key='source_bytes'")" != "" ] ||
        fail "signal left a partial output"
    fi
    no_leftovers "$work" "signal"
  fi

  # SIGKILL leaves the temporary file (nothing can remove it then); the
  # next run for the same output removes it, but never a live run's. The
  # runs are held mid-replay by a FIFO this shell keeps open for writing.
  if [ -f "$big" ]; then
    temps() { find "$work" -maxdepth 1 -name ".kill.db.gem-tmp-*" ! -name '*-journal' | sort; }
    wait_for_temps() {  # N
      for _ in $(seq 100); do [ "$(temps | wc -l)" -ge "$1" ] && return 0; sleep 0.05; done
      return 1
    }
    mkfifo "$work/live.fifo" "$work/dead.fifo"
    "$gi" --quiet - "$work/kill.db" <"$work/live.fifo" 2>/dev/null &  # a live run, kept
    live_pid=$!
    exec 7>"$work/live.fifo"
    head -c 300000 "$big" >&7
    wait_for_temps 1 || fail "kill: the live held run made no temporary file"
    live=$(temps)
    "$gi" --quiet - "$work/kill.db" <"$work/dead.fifo" 2>/dev/null &  # the run to kill
    dead_pid=$!
    exec 8>"$work/dead.fifo"
    head -c 300000 "$big" >&8
    wait_for_temps 2 || fail "kill: the second held run made no temporary file"
    dead=$(temps | grep -v -x -F "$live")
    kill -KILL "$dead_pid"
    wait "$dead_pid" 2>/dev/null
    exec 8>&-
    [ -n "$dead" ] && [ -e "$dead" ] || fail "kill: SIGKILL's temporary file is not there to test"
    run 0 "a run after a killed one" --quiet --force "$big" "$work/kill.db"
    [ -e "$dead" ] && fail "kill: the killed run's temporary file was left"
    kill -0 "$live_pid" 2>/dev/null || fail "kill: the live run ended early"
    [ -e "$live" ] || fail "kill: a live run's temporary file was removed"
    kill -TERM "$live_pid"
    wait "$live_pid" 2>/dev/null
    exec 7>&-
    [ -z "$(temps)" ] || fail "kill: temporary files left: $(temps)"
    echo "ok: a killed run's temporary file is removed by the next run, a live run's kept"

    # A pipe whose writer stalls after bytes that are not a replay: the
    # error ends gem-index while the writer still holds the pipe open.
    mkfifo "$work/stall.fifo"
    "$gi" --quiet - "$work/stall.db" <"$work/stall.fifo" 2>"$work/err" &
    stall_pid=$!
    exec 9>"$work/stall.fifo"
    printf 'not a replay, and then nothing for a while' >&9
    for _ in $(seq 200); do kill -0 "$stall_pid" 2>/dev/null || break; sleep 0.05; done
    if kill -0 "$stall_pid" 2>/dev/null; then
      fail "stalled pipe: gem-index still waits on it after its error"
      kill -KILL "$stall_pid"
    fi
    wait "$stall_pid"
    rc=$?
    exec 9>&-
    [ "$rc" -eq 65 ] || fail "stalled pipe: exit $rc, expected 65"
    grep -q "does not start with PBDEMS2" "$work/err" || fail "stalled pipe: $(cat "$work/err")"
    no_leftovers "$work" "stalled pipe"
  fi
fi

# A game gem does not know: indexed, with empty match-layer tables and a
# note in meta saying why.
cs2="$fixtures/cs2_demofilenet_14155_de_dust2.dem"
if [ ! -f "$cs2" ]; then
  echo "SKIPPED: fixture cs2_demofilenet_14155_de_dust2.dem not found in $fixtures"
else
  # The header's game directory names the game; make it one gem does not know.
  perl -0777 -pe 's/game\\csgo/game\\gemx/' "$cs2" > "$work/unknown.dem"
  cmp -s "$cs2" "$work/unknown.dem" && fail "unknown game: the header was not changed"
  run 0 "a game gem does not know" --quiet "$work/unknown.dem" "$work/unknown.db"
  counts=$(sqlite3 "$work/unknown.db" "select (select count(*) from players) ||
      (select count(*) from timeline) || (select count(*) from kills) ||
      (select count(*) from wards) || (select count(*) from match_info)")
  [ "$counts" = "00000" ] || fail "unknown game: match tables hold $counts rows, expected none"
  note=$(sqlite3 "$work/unknown.db" "select value from meta where key='match_layer'")
  case "$note" in
    *"reads Dota 2, CS2 and Deadlock"*) echo "ok: unknown game noted: $note" ;;
    *) fail "unknown game: meta.match_layer is '$note'" ;;
  esac
  [ "$(sqlite3 "$work/unknown.db" "select count(*) from entities")" -gt 100 ] ||
    fail "unknown game: its entities were not indexed"
fi

rm -rf "$work"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all gem-index command-line checks passed"
