#!/usr/bin/env bash
# Installs the end-to-end tests' npm packages from the lockfile, unless the installed tree already
# matches it (npm writes node_modules/.package-lock.json on every install). Run by `mvn verify`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if [[ -f node_modules/.package-lock.json && node_modules/.package-lock.json -nt package-lock.json ]]; then
  echo "e2e: npm packages up to date"
  exit 0
fi
command -v npm >/dev/null || { echo "e2e: npm is missing; install Node.js 20+ with npm" >&2; exit 1; }
echo "e2e: npm ci (MCP TypeScript SDK, conformance suite, Node 22 for the suite)"
npm ci --no-audit --no-fund
