#!/usr/bin/env bash
# Installs, builds and starts Trove on the embedded default: SQLite and ./data.
# On the first start the server prints the console's URL and the admin account's password.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "Installing npm packages…"
# npm install keeps the lockfile's versions (npm ci would refuse optional binaries a mirror lacks)
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error
echo "Building…"
npm run build --silent
exec node apps/server/dist/src/main.js
