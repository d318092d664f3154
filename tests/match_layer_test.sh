#!/usr/bin/env bash
# Runs match_layer_test.py with Debian's Python, which can load extensions.
exec /usr/bin/python3 "$TEST_SRCDIR/$TEST_WORKSPACE/tests/match_layer_test.py" "$@"
