#!/bin/sh
# Builds, tests and packages the VS Code extension from the lockfile:
#   npm ci && npm run compile && npm test && npm run package
# Usage: [PALLAS_LS_BIN=/path/to/pallas-ls] editors/vscode/scripts/ci.sh
# With PALLAS_LS_BIN set, test/protocol.test.ts runs against that binary;
# without it, that test is skipped. Needs node >= 20 and npm. Works without
# network once the npm cache holds the locked packages (--prefer-offline).
set -eu

if [ -n "${PALLAS_LS_BIN:-}" ]; then
  # The tests run from editors/vscode: make a relative path absolute first.
  case "$PALLAS_LS_BIN" in
    /*) ;;
    *) PALLAS_LS_BIN="$(pwd)/$PALLAS_LS_BIN" ;;
  esac
  if [ ! -x "$PALLAS_LS_BIN" ] || [ -d "$PALLAS_LS_BIN" ]; then
    echo "ci.sh: PALLAS_LS_BIN=$PALLAS_LS_BIN is not an executable file" >&2
    exit 2
  fi
  export PALLAS_LS_BIN
  echo "ci.sh: the protocol test uses PALLAS_LS_BIN=$PALLAS_LS_BIN"
else
  echo "ci.sh: PALLAS_LS_BIN is not set; the protocol test will be skipped"
fi

cd "$(dirname "$0")/.."

npm ci --prefer-offline --no-audit --no-fund
npm run compile
npm test
npm run package
ls -l pallas-ls.vsix
