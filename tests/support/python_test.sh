#!/usr/bin/env bash
# python_test.sh PART/SCRIPT.py [ARGS]: runs one of the Python end-to-end
# tests (tests/PART/SCRIPT.py) with Debian's Python, which can load
# extensions (and has Dask distributed, from python3-distributed). ARGS:
# more test modules of the same folder, run in the same process (junit.py).
# Under --config=asan libgem.so is instrumented, python3 and sqlite3 are not:
# the sanitizers' runtimes go first, and the interpreter's leaks are not ours.
[ -n "${GEM_SANITIZER_PRELOAD:-}" ] && export LD_PRELOAD="$GEM_SANITIZER_PRELOAD" \
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
script="$1"
shift
exec /usr/bin/python3 "$TEST_SRCDIR/$TEST_WORKSPACE/tests/$script" "$@"
