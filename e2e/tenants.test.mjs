// Tenants: `engram tokens` principals bound to zones, driven by the TypeScript SDK client against
// `engram serve`: a reader reading and refused writing, a zone's token refused another zone the same way
// whether it exists or not, listings without other zones, revocation on the running server, /health, /metrics.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { connectHttp, pollUntil, rawRequest, INITIALIZE, MCP_HEADERS, runCli, runRemoteCli, startServe, tempStore, uniqueWord } from "./lib/engram.mjs";

const OPS = "e2e-ops-" + Math.random().toString(36).slice(2);
const text = (r) => r.content.map((c) => c.text ?? "").join("\n");

describe("tenants: principals bound to zones over HTTP", { timeout: 240_000 }, () => {
  const store = tempStore();
  const secretWord = uniqueWord("zs");
  let server;
  let reader;
  let writer;
  const tokens = {};
  before(async () => {
    for (const [zone, content] of [["team", "The team deploys on Tuesdays"], ["secret", `The ${secretWord} vault needs three keys`]]) {
      const r = runCli(store, ["remember", content, "--zone", zone]);
      assert.equal(r.status, 0, r.stderr);
    }
    for (const [name, ...rights] of [["reader", "--zone", "team:read"], ["writer", "--zone", "team:write"]]) {
      const r = runCli(store, ["tokens", "add", name, ...rights]);
      assert.equal(r.status, 0, r.stderr);
      tokens[name] = r.stdout.trim();
      assert.match(tokens[name], /^engram_[A-Za-z0-9_-]{40,}$/);
    }
    server = await startServe(store, { tokens: [OPS] });
    reader = await connectHttp(server.url, tokens.reader, "reader");
    writer = await connectHttp(server.url, tokens.writer, "writer");
  });
  after(async () => {
    await reader?.close();
    await writer?.close();
    await server?.stop();
  });

  const call = (conn, name, args) => conn.client.callTool({ name, arguments: args });

  it("tokens list shows names and rights, never a token", () => {
    const r = runCli(store, ["tokens", "list"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /reader {2}team:read {2}created /);
    for (const t of Object.values(tokens)) assert.ok(!r.stdout.includes(t), "a token was printed");
  });

  it("a reader reads its zone and is refused writing it; nothing is written", async () => {
    const found = await call(reader, "recall", { query: "deploys", zone: "team" });
    assert.ok(!found.isError, text(found));
    assert.match(text(found), /Tuesdays/);
    const w = await call(reader, "remember", { content: "The team also deploys on Fridays", zone: "team" });
    assert.ok(w.isError);
    assert.match(text(w), /no write right on zone 'team'/);
    const again = await call(reader, "recall", { query: "Fridays", zone: "team" });
    assert.ok(!text(again).includes("Fridays"), text(again));
  });

  it("another zone is refused alike whether it exists or not, and never shows", async () => {
    for (const tool of ["recall", "stats", "context", "explore"]) {
      const args = { recall: { query: secretWord }, stats: {}, context: {}, explore: { key: "m_aaaaaaaaaa" } }[tool];
      const secret = await call(reader, tool, { ...args, zone: "secret" });
      const none = await call(reader, tool, { ...args, zone: "nosuchzone" });
      if (tool === "recall" || tool === "stats") assert.ok(secret.isError, `${tool}: ${text(secret)}`);
      assert.equal(text(secret).replaceAll("secret", "Z"), text(none).replaceAll("nosuchzone", "Z"), tool);
      assert.ok(!text(secret).includes(secretWord), text(secret));
    }
    const all = await call(reader, "stats", {});
    assert.ok(!all.isError, text(all));
    assert.ok(!text(all).includes("secret") && !text(all).includes(secretWord), text(all));
    const w = await call(writer, "remember", { content: "Writers cannot reach the other zone", zone: "secret" });
    assert.ok(w.isError);
    assert.match(text(w), /zone 'secret'/);
    const ok = await call(writer, "remember", { content: "The team writes its own zone", zone: "team" });
    assert.ok(!ok.isError, text(ok));
  });

  it("/health says ok to anyone and details to an operator; /metrics is for operators", async () => {
    const base = server.url.replace(/\/mcp$/, "");
    const anon = await fetch(`${base}/health`);
    assert.equal(anon.status, 200);
    assert.deepEqual(await anon.json(), { status: "ok" });
    const detail = await (await fetch(`${base}/health`, { headers: { Authorization: `Bearer ${OPS}` } })).json();
    assert.equal(detail.store.reachable, true);
    assert.ok(detail.store.memories >= 3, JSON.stringify(detail));
    assert.equal(typeof detail.index.lag, "number");
    assert.ok(["none", "loading", "ready"].includes(detail.embedder.state), JSON.stringify(detail));
    assert.equal((await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${tokens.reader}` } })).status, 403);
    const m = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${OPS}` } });
    assert.equal(m.status, 200);
    const body = await m.text();
    assert.match(body, /engram_tool_calls_total\{tool="recall",outcome="ok"\} [1-9]/);
    assert.match(body, /engram_tool_duration_seconds_bucket\{tool="recall",le="\+Inf"\} [1-9]/);
    assert.match(body, /engram_access_denied_total [1-9]/);
    assert.match(body, /engram_memories [0-9]+/);
  });

  it("the CLI's --remote remembers, recalls, counts and exports through the server with a principal's token", () => {
    const remote = (args) => runRemoteCli([...args, "--remote", server.url, "--token", tokens.writer]);
    const w = remote(["remember", "The team rotates the on-call rota on Mondays", "--zone", "team"]);
    assert.equal(w.status, 0, w.stderr);
    assert.match(w.stdout, /^created fact\//);
    const r = remote(["recall", "on-call", "rota", "--zone", "team"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, runCli(store, ["recall", "on-call", "rota", "--zone", "team"]).stdout, "the same output as locally");
    const stats = remote(["stats", "--json"]);
    assert.equal(stats.status, 0, stats.stderr);
    assert.ok(!stats.stdout.includes("secret"), stats.stdout);
    const exported = remote(["export"]);
    assert.equal(exported.status, 0, exported.stderr);
    assert.ok(exported.stdout.includes("on-call") && !exported.stdout.includes(secretWord), exported.stdout);
    const refused = remote(["export", "--zone", "secret"]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /the token may not do this \(403: access denied: this token has no read right on zone 'secret'/);
    const wrong = runRemoteCli(["stats", "--remote", server.url, "--token", "not-a-token"]);
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /refused the token \(401/);
  });

  it("a revoked token is refused by the running server within seconds", async () => {
    const r = runCli(store, ["tokens", "revoke", "reader"]);
    assert.equal(r.status, 0, r.stderr);
    const refused = await pollUntil(async () => {
      const res = await rawRequest(server.url, { method: "POST", headers: { ...MCP_HEADERS, Authorization: `Bearer ${tokens.reader}` }, body: INITIALIZE });
      return res.status === 401;
    }, { timeoutMs: 5000, intervalMs: 100 });
    assert.ok(refused, "the revoked token still works after 5 s");
  });
});

describe("serve's limits: requests per second per token, and SIGTERM", { timeout: 120_000 }, () => {
  let server;
  before(async () => {
    server = await startServe(tempStore(), { tokens: [OPS], extraArgs: ["--rate-limit", "0.001", "--rate-burst", "2"] });
  });
  after(async () => {
    await server?.stop();
  });

  it("a token over its rate gets 429 with Retry-After and a JSON-RPC error", async () => {
    const init = () => rawRequest(server.url, { method: "POST", headers: { ...MCP_HEADERS, Authorization: `Bearer ${OPS}` }, body: INITIALIZE });
    assert.equal((await init()).status, 200);
    assert.equal((await init()).status, 200);
    const limited = await init();
    assert.equal(limited.status, 429);
    const retryAfter = Number(limited.headers["retry-after"]);
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${limited.headers["retry-after"]}`);
    const body = JSON.parse(limited.body);
    assert.equal(body.jsonrpc, "2.0");
    assert.match(body.error.message, /^rate limited: this token sent more than 0\.001 requests per second/);
    assert.equal((await fetch(server.url.replace(/\/mcp$/, "/health"))).status, 200, "/health is never limited");
  });

  it("SIGTERM stops the server with exit code 0", async () => {
    await server.stop();
    assert.equal(server.proc.exitCode, 0, server.output.toString());
  });
});
