#!/usr/bin/env bash
# What a user outside this repository gets (npm run pack-check): the release tarball
# (scripts/pack.js, which builds once), then in an empty directory install it whole, as one
# who wants the reference server would — a cold npm cache, optional dependencies and install
# scripts on (better-sqlite3 compiles from source when its prebuilt binary cannot be
# downloaded) — with no engine warning; the installed phctl then validates and plans the
# examples on its embedded server (which loads the native module). Prints how long each install
# took. It takes minutes, so npm test runs only the fast part (test/ci/pack.test.ts, which
# installs as the CI kit does: no optional part); bench/install.ts times that install.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/phctl-pack-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

seconds() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f s", b - a }'; }
fail() {
  echo "pack-check: $*" >&2
  exit 1
}
no_engine_warning() {
  if grep -q EBADENGINE "$1"; then
    grep -A4 EBADENGINE "$1" >&2
    fail "engine warning while installing ($1)"
  fi
}

echo "node $(node --version), npm $(npm --version)"
# The release tarball as a publisher makes it: built exactly once.
node scripts/pack.js --out "$work" >"$work/pack.log" 2>&1 ||
  { cat "$work/pack.log" >&2; fail "scripts/pack.js failed"; }
builds=$(grep -c '^code cache: ' "$work/pack.log" || true)
[ "$builds" -eq 1 ] || { cat "$work/pack.log" >&2; fail "scripts/pack.js built $builds times, not once"; }
tarball=$(ls "$work"/phctl-*.tgz)
echo "packed $(basename "$tarball") ($(($(wc -c <"$tarball") / 1024)) kB)"

# 1. A user's first install: empty cache, install scripts run.
mkdir "$work/app" && cd "$work/app"
npm init -y >/dev/null
start=$(seconds)
npm install --cache "$work/npm-cache" --no-audit --no-fund "$tarball" >install.log 2>&1 ||
  { cat install.log >&2; fail "npm install failed"; }
echo "install, cold cache, with install scripts: $(took "$start")"
no_engine_warning "$work/app/install.log"
ls node_modules/better-sqlite3/build/Release/better_sqlite3.node >/dev/null ||
  fail "better-sqlite3 has no native module"

# 2. What test/ci/pack.test.ts does: warm cache, no install scripts.
mkdir "$work/fast" && cd "$work/fast"
npm init -y >/dev/null
start=$(seconds)
npm install --ignore-scripts --prefer-offline --no-audit --no-fund "$tarball" >install.log 2>&1 ||
  { cat install.log >&2; fail "npm install --ignore-scripts failed"; }
echo "install, warm cache, --ignore-scripts: $(took "$start")"
no_engine_warning "$work/fast/install.log"

# The installed bin, on the examples (manifests only: not the CI kit's dot-files).
cd "$work/app"
mkdir config && cp -r "$repo"/examples/*.yaml "$repo"/examples/projects "$repo"/examples/users config/
./node_modules/.bin/phctl --version
NODE_DEBUG=phctl ./node_modules/.bin/phctl validate config 2>validate.log
grep -q "bundle-validate.cjs: code cache used" validate.log ||
  { cat validate.log >&2; fail "the installed bundle did not use its code cache"; }
set +e
./node_modules/.bin/phctl plan config --detailed-exitcode >plan.log 2>&1
code=$?
set -e
[ "$code" -eq 2 ] || { cat plan.log >&2; fail "plan on the embedded server exited $code, not 2"; }
echo "$(tail -2 plan.log | head -1)"
echo "pack-check: ok"
