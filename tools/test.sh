#!/usr/bin/env bash
# Sets up this machine (Debian packages), builds gem and runs every test,
# then every test again under the sanitizers, then each fuzz target for
# 30 s. Prints Bazel's per-target results and the fuzzers' figures, then
# one line "N passed, N failed" counting test cases of all three (gtest
# cases from the test logs, a case a fuzz target).
# Exit status: 0 when every test passed.
set -uo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh || exit 1

# Fixtures live beside the checkout unless GEM_FIXTURES says otherwise.
if [ -z "${GEM_FIXTURES:-}" ] && [ -d ../shared/fixtures ]; then
  GEM_FIXTURES="$(cd ../shared/fixtures && pwd)"
fi
export GEM_FIXTURES="${GEM_FIXTURES:-}"

started=$(date +%s)
bazel test //... --nocache_test_results --test_output=errors "$@"
status=$?
# 0: all passed, 3: some tests failed; anything else: no usable results.
build_failed=()
[ "$status" -ne 0 ] && [ "$status" -ne 3 ] && build_failed+=(--build-failed)

# Then once more, every test but the corpus's (tagged no_sanitizers) under
# AddressSanitizer and UndefinedBehaviorSanitizer (.bazelrc's config:asan;
# its outputs sit beside the plain ones, in bazel-out/k8-optasan).
bazel test --config=asan //... --nocache_test_results --test_output=errors "$@"
asan_status=$?
[ "$asan_status" -ne 0 ] && [ "$asan_status" -ne 3 ] && build_failed+=(--build-failed)

# Last, every fuzz target for 30 s, under 5 minutes for the nine (tools/fuzz.sh;
# clang, libFuzzer), each a case of the count.
testlogs="$(readlink -f bazel-out)"
bazel shutdown >/dev/null 2>&1 || true
fuzz_junit="$(mktemp -d)"
bash tools/fuzz.sh --all 30 --junit "$fuzz_junit"
fuzz_status=$?

python3 tools/count_test_cases.py "$((started - 1))" "$testlogs/k8-opt/testlogs" \
  "$testlogs/k8-optasan/testlogs" "$fuzz_junit" "${build_failed[@]}"
count_status=$?
rm -rf "$fuzz_junit"

if [ "$status" -ne 0 ] || [ "$asan_status" -ne 0 ] || [ "$fuzz_status" -ne 0 ] ||
   [ "$count_status" -ne 0 ]; then
  exit 1
fi
exit 0
