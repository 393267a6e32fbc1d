#!/usr/bin/env bash
# Installs what the tests need and runs every suite: lint, types, build, unit, server on SQLite,
# server on PostgreSQL, browser journeys. Prints one line per suite and ends with
# "N passed, N failed" over all of them. Exits non-zero if anything failed.
#   --no-install   skip the apt and npm steps (for a machine that has them already)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
results="$root/.tmp/test-results"
rm -rf "$results" && mkdir -p "$results"
bin="$root/node_modules/.bin"

install=1
[[ "${1:-}" == "--no-install" ]] && install=0

if [[ $install -eq 1 ]]; then
  missing=()
  [[ -x /usr/bin/chromium ]] || missing+=(chromium)
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
  # Package clients the repository tests drive: Maven with Debian's deploy plugin (offline), curl.
  command -v mvn >/dev/null || missing+=(maven)
  command -v skopeo >/dev/null || missing+=(skopeo) # the Docker/OCI client of the registry tests and bench
  command -v podman >/dev/null || missing+=(podman) # the registry's second OCI client
  command -v go >/dev/null || missing+=(golang-go) # Go modules: go get, go mod download, go build
  dpkg -s cargo-web &>/dev/null || missing+=(cargo-web) # Cargo 1.9x (sparse registries); the tests run /usr/bin/cargo
  [[ -x /usr/bin/gem ]] || missing+=(ruby) # RubyGems: gem push, gem install, gem list, gem yank
  [[ -x /usr/bin/bundle ]] || missing+=(bundler) # RubyGems: bundle install through the compact index
  [[ -x /usr/bin/composer ]] || missing+=(composer) # Composer (and php-cli): composer require through a virtual repository
  command -v nuget >/dev/null || missing+=(nuget) # NuGet 2.8 on mono (its Depends bring the runtime and libraries): push, install, list
  command -v openssl >/dev/null || missing+=(openssl) # the Go test's TLS front (go sends credentials over HTTPS only)
  [[ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-deploy-plugin ]] || missing+=(libmaven-deploy-plugin-java)
  command -v curl >/dev/null || missing+=(curl)
  command -v gpgv >/dev/null || missing+=(gpgv) # checks the Debian repositories' signed Release files
  command -v gpg >/dev/null || missing+=(gnupg) # turns the published key into the keyring gpgv reads
  command -v script >/dev/null || missing+=(bsdutils) # npm login needs a terminal: script(1) gives it one
  [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light) # the reverse-proxy configuration is tested with a real nginx
  command -v haproxy >/dev/null || missing+=(haproxy) # checks the cluster's haproxy configuration (deploy/haproxy)
  # PyPI clients on Debian's Python: pip installs, twine uploads, build makes the wheel and sdist offline.
  /usr/bin/python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
  [[ -x /usr/bin/twine ]] || missing+=(twine)
  /usr/bin/python3 -m build --version >/dev/null 2>&1 || missing+=(python3-build)
  /usr/bin/python3 -c 'import setuptools, wheel' >/dev/null 2>&1 || missing+=(python3-setuptools python3-wheel)
  /usr/bin/python3 -c 'import fusepy' >/dev/null 2>&1 || missing+=(python3-fusepy) # the slow disk of slowDisk.test.ts (FUSE)
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "Installing Debian packages: ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
      echo "Need root to install ${missing[*]} (run: sudo apt-get install ${missing[*]})" >&2
      exit 1
    fi
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
      { echo "apt-get install ${missing[*]} failed" >&2; exit 1; }
  fi
  echo "Installing npm packages"
  scripts/npm-ci.sh "$results/npm-ci.log" || exit 1
fi

# Runs one suite quietly; shows its log only when it fails.
suite() {
  local name=$1; shift
  local log="$results/$name.log" started=$SECONDS
  if "$@" >"$log" 2>&1; then
    printf '  ok    %-22s %4ss\n' "$name" $((SECONDS - started))
    echo "$name pass" >>"$results/checks.txt"
  else
    printf '  FAIL  %-22s %4ss\n' "$name" $((SECONDS - started))
    echo "$name fail" >>"$results/checks.txt"
    tail -n 60 "$log" | sed 's/^/        /'
  fi
}

vitest() { # name dir [extra env...]
  local name=$1 dir=$2
  (cd "$dir" && "$bin/vitest" run --reporter=dot --reporter=json --outputFile.json="$results/$name.json")
}

echo "Running the suites"
suite lint npm run lint --silent
suite typecheck npm run typecheck --silent
suite build npm run build --silent
suite unit-contracts vitest unit-contracts packages/contracts
suite unit-web vitest unit-web apps/web
suite server-sqlite vitest server-sqlite apps/server
suite server-postgres scripts/with-postgres.sh bash -c "cd apps/server && '$bin/vitest' run --reporter=dot --reporter=json --outputFile.json='$results/server-postgres.json'"
e2e_data=$(mktemp -d /tmp/trove-e2e-XXXXXX)
suite e2e env TROVE_E2E_DATA_DIR="$e2e_data" PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" bash -c "cd e2e && '$bin/playwright' test"
rm -rf "$e2e_data"

node scripts/summarize.mjs "$results"
