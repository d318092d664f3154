#!/usr/bin/env bash
# Runs corpus_test.py with Debian's Python (Dask distributed from Debian's
# python3-distributed; sqlite3 that can load extensions).
exec /usr/bin/python3 "$TEST_SRCDIR/$TEST_WORKSPACE/tests/corpus_test.py" "$@"
