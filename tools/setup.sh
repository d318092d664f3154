#!/usr/bin/env bash
# Installs every Debian package gem needs to build and test.
# Idempotent: when everything is present it prints nothing and exits 0.
set -euo pipefail

packages=(
  bazel-bootstrap    # Bazel 4.2.3, the build
  g++                # C++20 compiler
  protobuf-compiler  # protoc
  libprotobuf-dev    # protobuf runtime and headers
  libsnappy-dev      # snappy-compressed demo payloads
  libfmt-dev         # formatting
  libsqlite3-dev     # SQLite headers and library
  libssl-dev         # libcrypto: SHA-256 of replays
  sqlite3            # the shell, used by the extension's tests
  libgtest-dev       # GoogleTest
  libgmock-dev       # GoogleMock
  nlohmann-json3-dev # JSON reader for the tests
  clang-14           # fuzz targets (tools/fuzz.sh)
  libclang-rt-14-dev # libFuzzer and the sanitizers' runtimes for clang
  python3            # /usr/bin/python3 for the extension's tests
  python3-distributed  # Dask distributed, for gem-corpus (dask-scheduler, dask-worker)
  python3-pandas     # gemdb.frame's DataFrames (tools/python)
  python3-venv       # the Python package's install test (a venv with pip and setuptools)
  python3-pip
  python3-setuptools
  zlib1g-dev         # CRC-32 for string-table checks; .dem.gz replays
  libzstd-dev        # keyframe rows; .dem.zst replays
  libbz2-dev         # .dem.bz2 replays
  libcurl4-openssl-dev  # broadcasts over HTTP(S): curl.h; libcurl4 is loaded when a URL is read
  bzip2              # the bzip2 command: the demo's next step
  zstd               # the zstd command: .dem.zst fixtures in tests, gem-corpus hashing
  chromium           # headless browser for gem-view's page tests
  fonts-noto-core    # names as the page draws them, in every script:
  fonts-noto-cjk     #   Chinese, Japanese and Korean,
  fonts-noto-color-emoji  # and emoji (a player's name is often one)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=600 -qq update >/dev/null
  "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=600 -qq install -y --no-install-recommends "${missing[@]}" >/dev/null
fi

# gem-view's front-end libraries and its browser tests' driver, from npm at
# the versions tools/view/package-lock.json pins (no browser is downloaded:
# playwright-core drives Debian's chromium). Again only when the lock file
# changed since the last install.
view="$(cd "$(dirname "$0")/view" && pwd)"
if ! cmp -s "$view/package-lock.json" "$view/node_modules/.gem-lock.json"; then
  command -v npm >/dev/null || { echo "setup: npm is needed for tools/view" >&2; exit 1; }
  echo "setup: npm ci in tools/view" >&2
  (cd "$view" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || exit 1
  cp "$view/package-lock.json" "$view/node_modules/.gem-lock.json"
fi

# gem-bench's CS2 peer, demoparser2 (run by node; tools/bench/peers), at
# the version its package-lock.json pins, the same way.
peers="$(cd "$(dirname "$0")/bench/peers" && pwd)"
if ! cmp -s "$peers/package-lock.json" "$peers/node_modules/.gem-lock.json"; then
  command -v npm >/dev/null || { echo "setup: npm is needed for tools/bench/peers" >&2; exit 1; }
  echo "setup: npm ci in tools/bench/peers" >&2
  (cd "$peers" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || exit 1
  cp "$peers/package-lock.json" "$peers/node_modules/.gem-lock.json"
fi
