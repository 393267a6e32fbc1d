#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster made from the installed binaries:
# a fresh data directory, a free port on 127.0.0.1, removed afterwards whatever the outcome.
# The command sees TROVE_TEST_DATABASE_URL (a superuser URL to the postgres database).
set -euo pipefail

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z "$pgbin" || ! -x "$pgbin/initdb" ]]; then
  echo "with-postgres: no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/trove-pg-XXXXXX)
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

# PostgreSQL refuses to run as root: run the cluster as the postgres user then.
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
  chown postgres "$dir"
  as_owner=(runuser -u postgres --)
fi

cleanup() {
  "${as_owner[@]}" "$pgbin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_owner[@]}" "$pgbin/initdb" -D "$dir/data" -U trove --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
# Durability is not what these tests are about: turn the fsyncs off for speed.
"${as_owner[@]}" "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }

export TROVE_TEST_DATABASE_URL="postgres://trove@127.0.0.1:$port/postgres"
set +e
"$@"
rc=$?
set -e
exit $rc
