#!/usr/bin/env bash
# Packs the project, installs the tarball globally into a throwaway prefix (as `npm install -g`
# would for a user; npm 11 blocks dependencies' install scripts in global installs unless
# allowed, so better-sqlite3-multiple-ciphers is named), then uses `chatgraph` from that prefix's PATH alone:
# its version, an import of a bundled sample and a search.
#
# Given a tarball already packed (CI packs it right after `npm ci`, then runs this beside the
# checks, since the install's compile of SQLite is minutes of one core), it installs that one;
# otherwise it packs the checkout as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then
  cp "$1" "$work/"
  tarball="$(basename "$1")"
else
  tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
fi
log="$work/install.log"
# onnxruntime-node's own postinstall would fetch GPU binaries from a host that is no registry
# (its CPU binaries ship in the package): ONNXRUNTIME_NODE_INSTALL=skip, as the README says.
ONNXRUNTIME_NODE_INSTALL=skip npm install -g --prefix "$work/prefix" --allow-scripts=better-sqlite3-multiple-ciphers \
  --no-audit --no-fund "$work/$tarball" >"$log" 2>&1 || { cat "$log"; echo "global install failed"; exit 1; }
cat "$log"

export PATH="$work/prefix/bin:$PATH"
cd "$work"
version="$(chatgraph --version)"
expected="$(node -p 'require(process.argv[1]).version' "$OLDPWD/package.json")"
[ "$version" = "$expected" ] || { echo "chatgraph --version said '$version', not $expected"; exit 1; }
chatgraph import "$work/prefix/lib/node_modules/chatgraph/samples/chatgpt-export.zip" \
  --data-dir "$work/data" --quiet
hits="$(chatgraph search sourdough --data-dir "$work/data" --format json)"
node -e '
  const answer = JSON.parse(process.argv[1]);
  const n = (answer.conversations ?? answer.hits ?? []).length;
  if (n === 0) { console.error("the search from the global install found nothing"); process.exit(1); }
' "$hits"
echo "global install: chatgraph $version from $work/prefix works (import, search)"
