#!/usr/bin/env bash
# Fuzzes gem's decoders (tests/fuzz/targets.h) with libFuzzer under
# AddressSanitizer and UndefinedBehaviorSanitizer, built by clang-14 in a
# Bazel output base of its own (.bazelrc's config:fuzz).
#
#   tools/fuzz.sh --list                       the targets, one a line
#   tools/fuzz.sh TARGET SECONDS [--junit DIR] fuzzes one target
#   tools/fuzz.sh --all SECONDS [--junit DIR]  each target for SECONDS
#
# Exit 0 when nothing was found. On a crash, a hang (10 s on one input), a
# leak, running out of memory (2 GiB) or any sanitizer report: exit 1, and
# "fuzz: TARGET found ...: PATH" names the input (copy it into
# tests/fuzz/regressions/TARGET/ once fixed: the test suite runs it). Each
# run prints its executions and executions a second. --junit DIR writes
# DIR/TARGET/test.xml, one case a target, for tools/test.sh's count.
# Corpora grow in ${GEM_FUZZ_DIR:-$HOME/.cache/gem-fuzz} (one run at a time
# in a directory: runs sharing one overwrite each other's logs). Each target
# also reads seeds cut from the fixtures ($GEM_FIXTURES) and from their
# indexes by tests/fuzz:cut_seeds (whole frames, real entity packets,
# string-table messages, baselines, change chunks, states, keyframe
# blocks; recut when the cutter or the fixtures change), and
# packet_entities_update reads the auto
# fixture's schema and baselines.
set -uo pipefail
cd "$(dirname "$0")/.."

targets=(demo_stream compressed_replay packet_entities_update string_table_entries field_paths_and_decoders
         chunk_and_state_codecs extension_queries deadlock_user_messages broadcast_fragments)
work="${GEM_FUZZ_DIR:-$HOME/.cache/gem-fuzz}"
output_base="${GEM_FUZZ_BAZEL:-$HOME/.cache/gem-fuzz-bazel}"
fixtures="${GEM_FIXTURES:-../shared/fixtures}"
export GEM_FIXTURES="$fixtures"  # packet_entities_update reads the auto fixture

usage() {
  sed -n '6,8p' "$0" | sed 's/^# *//' >&2
  exit 64
}

[ $# -ge 1 ] || usage
if [ "$1" = "--list" ]; then
  printf '%s\n' "${targets[@]}"
  exit 0
fi
[ $# -ge 2 ] || usage
which="$1" seconds="$2"
shift 2
junit=""
if [ $# -ge 2 ] && [ "$1" = "--junit" ]; then junit="$2"; shift 2; fi
[ $# -eq 0 ] || usage
case "$seconds" in '' | *[!0-9]*) usage ;; esac
if [ "$which" = "--all" ]; then
  chosen=("${targets[@]}")
else
  printf '%s\n' "${targets[@]}" | grep -qx -- "$which" || {
    echo "fuzz: no target '$which' (tools/fuzz.sh --list)" >&2
    exit 64
  }
  chosen=("$which")
fi
command -v clang-14 >/dev/null || { echo "fuzz: clang-14 is missing (tools/setup.sh)" >&2; exit 69; }

labels=(//tests/fuzz:cut_seeds)
for t in "${chosen[@]}"; do labels+=("//tests/fuzz:${t}_fuzzer"); done
bazel() { command bazel --output_base="$output_base" "$@"; }
if ! bazel build --config=fuzz --symlink_prefix=/ "${labels[@]}"; then
  echo "fuzz: the fuzz targets do not build" >&2
  exit 1
fi
bin="$(bazel info --config=fuzz bazel-bin 2>/dev/null)/tests/fuzz"

# Seeds, recut when the cutter or the fixtures changed (a fresh machine
# has no $work yet).
mkdir -p "$work"
seeds="$work/seeds"
if [ -d "$fixtures" ]; then
  stamp="$(sha1sum "$bin/cut_seeds" | cut -c1-40) $(ls -l "$fixtures"/*.dem 2>/dev/null | sha1sum | cut -c1-40)"
  if [ "$(cat "$seeds/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$seeds"
    if "$bin/cut_seeds" "$fixtures" "$seeds" > "$work/cut_seeds.log" 2>&1; then
      echo "$stamp" > "$seeds/.stamp"
      echo "fuzz: seeds cut from $fixtures: $(tr '\n' ' ' < "$work/cut_seeds.log")"
    else
      echo "fuzz: cutting seeds from $fixtures failed (see $work/cut_seeds.log); fuzzing without" >&2
    fi
  fi
fi

write_junit() {  # target ok|skipped|failed message
  [ -n "$junit" ] || return 0
  mkdir -p "$junit/$1"
  local failure=""
  [ "$2" = skipped ] && failure="<skipped/>"
  [ "$2" = failed ] && failure="<failure message=\"$(printf '%s' "$3" | sed 's/&/\&amp;/g; s/"/\&quot;/g; s/</\&lt;/g')\"/>"
  printf '<testsuites><testsuite name="fuzz_%s"><testcase name="%s">%s</testcase></testsuite></testsuites>\n' \
    "$1" "$1" "$failure" > "$junit/$1/test.xml"
}

found=0
for t in "${chosen[@]}"; do
  corpus="$work/$t/corpus"
  mkdir -p "$corpus" "$work/$t/findings"
  seed_dirs=()
  [ -d "$seeds/$t" ] && seed_dirs=("$seeds/$t")
  if [ "$t" = packet_entities_update ] &&
     [ ! -f "$fixtures/dota2_haste_auto-20240102-2233-start.dem" ]; then
    echo "fuzz: $t: SKIPPED: fixture dota2_haste_auto-20240102-2233-start.dem not found in $fixtures"
    write_junit "$t" skipped ""
    continue
  fi
  log="$work/$t/last.log"
  "$bin/${t}_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/$t/findings/" "$corpus" "${seed_dirs[@]}" \
    > "$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  if [ "$status" -eq 0 ]; then
    echo "fuzz: $t: ${runs:-0} executions in ${seconds} s (${rate:-0}/s), nothing found"
    write_junit "$t" ok ""
  else
    input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    what=$(grep -m1 -E 'ERROR: |runtime error|SUMMARY' "$log" | sed 's/^==[0-9]*== *//')
    echo "fuzz: $t found ${what:-a failure (exit $status)}: ${input:-see $log}"
    write_junit "$t" failed "${what:-exit $status}: ${input:-$log}"
    found=1
  fi
done
bazel shutdown >/dev/null 2>&1 || true
exit "$found"
