#!/usr/bin/env bash
# Browser tests: installs what they need when it is missing (Debian chromium, the npm packages
# pinned in package-lock.json), builds the server binary, and runs every *.test.mjs against it.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing Debian chromium"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
# A font with Japanese glyphs, for the pages in Japanese (languages.test.mjs screenshots them).
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=ja 2>/dev/null)" ]; then
  echo "installing a Japanese font"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-ipafont-gothic >/dev/null
fi
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] || [ ! -d node_modules/typescript ]; then
  npm ci --no-audit --no-fund
fi

bash ../../scripts/ensure-openssl
(cd ../.. && cargo build --locked --bin tabletop)
# The binary cargo just built: under CARGO_TARGET_DIR when one is set (relative to the project).
root=$(cd ../.. && pwd)
target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in /*) ;; *) target_dir="$root/$target_dir" ;; esac
export TABLETOP_BIN="${TABLETOP_BIN:-$target_dir/debug/tabletop}"
export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"
mkdir -p ../../test-artifacts/screenshots
# One file at a time, each in its own run, so a failure names its file. A file that fails is run
# once more: a browser on a loaded machine can miss a deadline once. Failing twice fails the run;
# failing once and then passing is said here and kept in test-artifacts/e2e-flaky.txt, so it is
# seen and fixed rather than hidden.
failed=()
for f in ./*.test.mjs; do
  node --test --test-concurrency=1 "$f" || failed+=("$f")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "browser tests that failed: ${failed[*]}; running each once more"
  still=()
  for f in "${failed[@]}"; do
    node --test --test-concurrency=1 "$f" || still+=("$f")
  done
  if [ ${#still[@]} -gt 0 ]; then
    echo "browser tests that failed twice: ${still[*]}"
    exit 1
  fi
  printf '%s\n' "${failed[@]}" > ../../test-artifacts/e2e-flaky.txt
  echo "FLAKY: failed once and passed on the second run: ${failed[*]} (test-artifacts/e2e-flaky.txt)"
fi
echo "browser tests: every file passed"
