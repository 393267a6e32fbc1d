#!/usr/bin/env bash
# Installs, builds and starts Trove on the embedded default: SQLite and ./data.
# On the first start the server prints the console's URL and the admin account's password.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "Installing npm packages…"
scripts/npm-ci.sh
echo "Building…"
npm run build --silent
exec node --no-memory-reducer --initial-old-space-size=128 apps/server/dist/src/main.js
