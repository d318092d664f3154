#!/usr/bin/env bash
# The main job on a fixture: sets up this machine, builds gem and runs it on
# a replay (default: the Dota 2 fixture dota2_haste_nekit.dem).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
fixtures="${GEM_FIXTURES:-../shared/fixtures}"
replay="${1:-$fixtures/dota2_haste_nekit.dem}"
bazel build //tools:gem-dump >&2
bazel-bin/tools/gem-dump summary "$replay"
