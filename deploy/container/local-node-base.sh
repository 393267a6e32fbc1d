#!/usr/bin/env bash
# Makes a stand-in for node:20-slim where no container registry can be reached: Debian bookworm
# (minbase, by debootstrap from the configured Debian mirror) with this machine's own Node.js 20
# and npm under /usr/local, its headers, and the user node (1000), as the official image has them. Then:
#   podman build --format docker --build-arg NODE_IMAGE=localhost/trove-node-base:20-bookworm -t trove .
# Needs root, debootstrap and podman; takes a minute or two.
#   $1  image name (default localhost/trove-node-base:20-bookworm)
set -euo pipefail
image=${1:-localhost/trove-node-base:20-bookworm}
node --version | grep -q '^v20\.' || { echo "Node.js 20 is needed here, found $(node --version)" >&2; exit 1; }
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
work=$(mktemp -d /tmp/trove-node-base-XXXXXX)
trap 'rm -rf "$work"' EXIT
debootstrap --variant=minbase bookworm "$work/rootfs" "${mirror:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
root=$work/rootfs
install -m 0755 "$(readlink -f "$(command -v node)")" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$root/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# The headers native addons compile against (the official image has them in /usr/local/include).
nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
mkdir -p "$root/usr/local/include"
cp -a "$nodedir/include/node" "$root/usr/local/include/node"
chroot "$root" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
tar -C "$root" -c . | podman import --change 'CMD ["node"]' - "$image" >/dev/null
echo "$image"
