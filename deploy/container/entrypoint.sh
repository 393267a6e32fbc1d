#!/bin/sh
# The container's entrypoint (deploy/container/entrypoint.sh, /opt/trove/entrypoint.sh in the image).
#   (no arguments)                    start the server
#   doctor | backup <dir> | restore <dir> | help   the server's maintenance commands, same settings
#   anything else                     run it as given (e.g. sh, for a look inside)
# It checks that the data directory can be written by the user it runs as, then replaces itself
# with Node.js (exec): the server is the process the container's signals reach, so SIGTERM stops
# it the usual way (in-flight requests finish, exit code 0). In the image tini runs it as PID 1's
# child, reaping any process the server's children leave behind.
set -eu

TROVE_HOME=${TROVE_HOME:-/opt/trove}
main=$TROVE_HOME/apps/server/dist/src/main.js
export TROVE_DATA_DIR="${TROVE_DATA_DIR:-/var/lib/trove}"

case "${1:-}" in
  "" | doctor | backup | restore | help | --help) ;;
  *) exec "$@" ;;
esac

if [ ! -f "$main" ]; then
  echo "trove: the built server is not at $main (set TROVE_HOME to the folder that holds apps/)" >&2
  exit 2
fi
# A volume mounted over the data dir belongs to whoever made it: say so plainly rather than
# letting the server fail on its first write.
if ! mkdir -p "$TROVE_DATA_DIR" 2>/dev/null || [ ! -w "$TROVE_DATA_DIR" ]; then
  echo "trove: TROVE_DATA_DIR $TROVE_DATA_DIR cannot be written by uid $(id -u) gid $(id -g): give the volume to that user (chown, or fsGroup in Kubernetes)" >&2
  exit 2
fi

# --no-memory-reducer, --initial-old-space-size: see docs/operations.md ("Node.js flags").
exec node --no-memory-reducer --initial-old-space-size=128 "$main" "$@"
