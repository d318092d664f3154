#!/usr/bin/env bash
# Runs corpus_test.py (or the test script given first) with Debian's Python (Dask distributed from Debian's
# python3-distributed; sqlite3 that can load extensions).
# Under --config=asan libgem.so is instrumented, python3 and sqlite3 are not:
# the sanitizers' runtimes go first, and the interpreter's leaks are not ours.
[ -n "${GEM_SANITIZER_PRELOAD:-}" ] && export LD_PRELOAD="$GEM_SANITIZER_PRELOAD" \
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
script=corpus_test.py
case "${1:-}" in *.py) script=$1; shift ;; esac
exec /usr/bin/python3 "$TEST_SRCDIR/$TEST_WORKSPACE/tests/$script" "$@"
