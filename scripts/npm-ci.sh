#!/usr/bin/env bash
# Installs the npm packages exactly as package-lock.json lists them (npm ci), so an install fails
# whenever a package.json and the lock file disagree, as it would in users' own pipelines.
# Skipped when node_modules was installed by this script from the same manifests and the same
# Node.js: the stamp holds their hashes. A fresh clone has no stamp and always installs.
#   $1  optional log file for npm's output (its opening and closing lines are shown on failure)
set -euo pipefail
cd "$(dirname "$0")/.."
log=${1:-/dev/stdout}
stamp=node_modules/.trove-npm-ci
want=$( { node --version; sha256sum package-lock.json $(git ls-files '*package.json' 2>/dev/null || find . -name package.json -not -path '*/node_modules/*'); } | sha256sum | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
  exit 0
fi
if ! PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
  # npm names what is missing at the top and appends its usage text; a network failure ends the log.
  [[ $log != /dev/stdout ]] && { grep -v '^npm error  ' "$log" | head -n 12; tail -n 2 "$log"; }
  echo "npm ci failed (where package.json and package-lock.json disagree: run npm install and commit the lock file)" >&2
  exit 1
fi
echo "$want" >"$stamp"
