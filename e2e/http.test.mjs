// `engram serve` (Streamable HTTP) driven by the TypeScript SDK client with a bearer token: every tool,
// bad input, plus authentication, Host/Origin checks and error bodies without stack traces.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { INITIALIZE, MCP_HEADERS, connectHttp, rawRequest, startServe, tempStore } from "./lib/engram.mjs";
import { assertNoStackTrace, badInputTests, validCallTests } from "./lib/tools.mjs";

const TOKEN = "e2e-token-" + Math.random().toString(36).slice(2);
const OTHER_TOKEN = "e2e-second-" + Math.random().toString(36).slice(2);

describe("engram serve over Streamable HTTP", { timeout: 170_000 }, () => {
  let server;
  let conn;
  const errorBodies = [];
  before(async () => {
    server = await startServe(tempStore(), { tokens: [TOKEN, OTHER_TOKEN] });
    conn = await connectHttp(server.url, TOKEN, "http");
  });
  after(async () => {
    await conn?.close();
    await server?.stop();
  });

  // fetch for ordinary requests; node:http (rawRequest) only where a header fetch will not send (Host)
  const fetchPost = async (headers, body = INITIALIZE) => {
    const r = await fetch(server.url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 400) errorBodies.push([`fetch POST ${JSON.stringify(headers)}`, text]);
    return { status: r.status, body: text };
  };
  const post = async (headers, body = INITIALIZE) => {
    const r = await rawRequest(server.url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body });
    if (r.status >= 400) errorBodies.push([`POST ${JSON.stringify(headers)}`, r.body]);
    return r;
  };

  it("the session is over HTTP with a session id", () => {
    assert.ok(conn.transport.sessionId, "no Mcp-Session-Id was issued");
  });

  validCallTests(() => conn.client);
  badInputTests(() => conn.client);

  it("a second configured token works too", async () => {
    const other = await connectHttp(server.url, OTHER_TOKEN, "http-2");
    try {
      const { tools } = await other.client.listTools();
      assert.equal(tools.length, 9);
    } finally {
      await other.close();
    }
  });

  it("no token → 401 (raw POST and SDK client)", async () => {
    const r = await fetchPost({});
    assert.equal(r.status, 401, `no token: ${r.status} ${r.body}`);
    await assert.rejects(connectHttp(server.url, undefined, "no-token"), (e) => {
      assert.equal(e.code, 401, `SDK error: ${e.message}`);
      assertNoStackTrace(e.message, "SDK 401 error");
      return true;
    });
  });

  it("wrong token → 401 (raw POST and SDK client)", async () => {
    for (const auth of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, "Bearer ", `Basic ${Buffer.from("a:" + TOKEN).toString("base64")}`, TOKEN]) {
      const r = await fetchPost({ Authorization: auth });
      assert.equal(r.status, 401, `Authorization '${auth.slice(0, 12)}…': ${r.status} ${r.body}`);
    }
    await assert.rejects(connectHttp(server.url, "wrong-" + TOKEN, "wrong-token"), (e) => {
      assert.equal(e.code, 401, `SDK error: ${e.message}`);
      return true;
    });
  });

  it("a token does not open another session: requests with a wrong token on a live session id → 401", async () => {
    const r = await fetchPost({ Authorization: "Bearer nope", "Mcp-Session-Id": conn.transport.sessionId },
      { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} });
    assert.equal(r.status, 401, `${r.status} ${r.body}`);
  });

  it("a bad Host header is rejected (DNS rebinding), even with a valid token", async () => {
    const r = await post({ Authorization: `Bearer ${TOKEN}`, Host: "evil.example.com" });
    assert.ok(r.status >= 400 && r.status < 500, `Host evil.example.com: ${r.status} ${r.body}`);
    const ok = await post({ Authorization: `Bearer ${TOKEN}`, Host: `127.0.0.1:${server.port}` });
    assert.equal(ok.status, 200, `the real Host must still work: ${ok.status} ${ok.body}`);
  });

  it("a foreign Origin is rejected, even with a valid token", async () => {
    const r = await fetchPost({ Authorization: `Bearer ${TOKEN}`, Origin: "http://evil.example.com" });
    assert.ok(r.status >= 400 && r.status < 500, `Origin evil.example.com: ${r.status} ${r.body}`);
    const ok = await fetchPost({ Authorization: `Bearer ${TOKEN}`, Origin: `http://127.0.0.1:${server.port}` });
    assert.equal(ok.status, 200, `the server's own Origin must still work: ${ok.status} ${ok.body}`);
  });

  it("protocol-level errors (no session, unknown session, bad JSON, bad Accept) are 4xx", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const cases = [
      ["GET without session", { method: "GET", headers: { ...auth, Accept: "text/event-stream" } }],
      ["POST unknown session", { method: "POST", headers: { ...MCP_HEADERS, ...auth, "Mcp-Session-Id": "no-such-session" },
        body: { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} } }],
      ["POST unparsable body", { method: "POST", headers: { ...MCP_HEADERS, ...auth }, body: "{not json" }],
      ["POST bad Accept", { method: "POST", headers: { ...auth, "Content-Type": "application/json", Accept: "text/plain" }, body: INITIALIZE }],
    ];
    for (const [what, opts] of cases) {
      const r = await rawRequest(server.url, opts);
      errorBodies.push([what, r.body]);
      assert.ok(r.status >= 400 && r.status < 500, `${what}: ${r.status} ${r.body}`);
    }
  });

  it("no error body contains stack-trace text", () => {
    assert.ok(errorBodies.length >= 8, `expected the error bodies of the checks above, got ${errorBodies.length}`);
    for (const [what, body] of errorBodies) assertNoStackTrace(body, `error body of ${what}`);
  });
});
