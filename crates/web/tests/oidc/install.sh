#!/usr/bin/env bash
# Installs the test OpenID provider (npm oidc-provider, pinned by package.json beside this
# script) into <repo>/.tools/oidc (override with MCP_ELICIT_TOOLS). Idempotent: does
# nothing when the installed package.json matches.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../../.." && pwd)"
TOOLS="${MCP_ELICIT_TOOLS:-$ROOT/.tools}"
DEST="$TOOLS/oidc"
say() { printf 'install-oidc: %s\n' "$*"; }
mkdir -p "$DEST"
if [ -f "$DEST/package.json" ] && cmp -s "$HERE/package.json" "$DEST/package.json" \
   && [ -d "$DEST/node_modules/oidc-provider" ]; then
  say "oidc-provider already installed in $DEST"
  exit 0
fi
cp "$HERE/package.json" "$DEST/package.json"
( cd "$DEST" && npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null )
say "installed oidc-provider into $DEST"
