#!/usr/bin/env bash
# Runs synth_index_test.py with Debian's Python, which can load extensions.
exec /usr/bin/python3 "$TEST_SRCDIR/$TEST_WORKSPACE/tests/synth_index_test.py" "$@"
