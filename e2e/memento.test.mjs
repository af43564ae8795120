// The Memento MCP profile end to end: `engram mcp --profile memento` driven over stdio by the
// TypeScript SDK client. The seed's recommended flow (context → remember → recall → forget the error +
// remember the procedure → reflect) with Memento's own argument names (topic, keywords, importance as
// a number, linkedTo, isAnchor, scope), every tool called once with valid arguments, answers in
// Memento's JSON shapes (text is JSON.stringify(data, null, 2)), Korean content, and bad input coming
// back as isError saying what to send, with nothing written.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MCP_HEADERS, connectHttp, connectStdio, rawRequest, startServe, tempStore } from "./lib/engram.mjs";
import { callErr, textOf } from "./lib/tools.mjs";

const TOOLS = ["context", "remember", "batch_remember", "recall", "reflect", "forget", "link", "amend", "graph_explore",
  "fragment_history", "memory_stats", "memory_consolidate", "tool_feedback", "get_skill_guide", "reconstruct_history",
  "search_traces", "session_rotate"];

describe("memento profile over stdio", () => {
  const store = tempStore();
  let server;
  let client;

  before(async () => {
    server = await connectStdio(store, "memento-e2e", { mcpArgs: ["--profile", "memento"] });
    client = server.client;
  });
  after(async () => { await server?.close(); });

  async function ok(name, args = {}) {
    const r = await client.callTool({ name, arguments: args });
    assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
    const text = textOf(r);
    const data = JSON.parse(text);
    assert.equal(text, JSON.stringify(data, null, 2), `${name}: text is not JSON.stringify(data, null, 2)`);
    assert.deepEqual(r.structuredContent, data, `${name}: structured content is the same data`);
    return data;
  }
  const total = async () => (await ok("memory_stats")).stats.total;

  it("lists Memento's tools with its argument names", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS);
    const remember = tools.find((t) => t.name === "remember").inputSchema;
    assert.deepEqual(remember.required, ["content", "topic", "type"]);
    for (const p of ["keywords", "importance", "linkedTo", "isAnchor", "supersedes", "scope", "idempotencyKey", "dryRun"]) {
      assert.ok(remember.properties[p], `remember has ${p}`);
    }
    assert.equal(remember.properties.importance.type, "number");
  });

  it("refuses bad input with what to send, and writes nothing", async () => {
    await callErr(client, "remember", { content: "x", topic: "t" }, [/type is required/]);
    await callErr(client, "remember", { content: "x", topic: "t", type: "note" }, [/fact, decision, error/]);
    await callErr(client, "remember", { content: "x".repeat(301), topic: "t", type: "fact" }, [/limit of 300/, /split/]);
    await callErr(client, "remember", { content: "x", topic: "t", type: "fact", importance: 1.5 }, [/importance must be 0.0..1.0/]);
    await callErr(client, "remember", { content: "x", topic: "t", type: "fact", tags: ["a"] }, [/tags is not an argument of remember/]);
    await callErr(client, "recall", {}, [/keywords or text is required/]);
    await callErr(client, "forget", {}, [/id or topic is required/]);
    await callErr(client, "link", { fromId: "m_aaaaaaaaaa", toId: "m_bbbbbbbbbb" }, [/no fragment with fromId/]);
    await callErr(client, "reflect", { decisions: ["fine"], new_procedures: ["y".repeat(400)] }, [/new_procedures\[0\]\.content/]);
    assert.equal(await total(), 0);
  });

  it("runs the seed's recommended flow", async () => {
    const ctx0 = await ok("context");
    assert.deepEqual(ctx0.fragments, []);
    const pref = await ok("remember", { content: "Always answer in Korean", topic: "style", type: "preference" });
    assert.equal(pref.ttl_tier, "permanent");
    const err = await ok("remember", { content: "Redis NOAUTH 에러: REDIS_PASSWORD 가 비어 있다", topic: "redis", type: "error",
      keywords: ["redis", "noauth"], importance: 0.9 });
    assert.equal(err.success, true);
    assert.match(err.id, /^m_[a-z2-7]{10}$/);
    assert.deepEqual(err.keywords, ["redis", "noauth"]);
    assert.equal(err.scope, "permanent");
    assert.equal(err.merged, false);
    assert.match(err.case_id, /^[0-9a-f-]{36}$/, "an error opens a case in this stdio session");
    const again = await ok("remember", { content: "Redis NOAUTH 에러: REDIS_PASSWORD 가 비어 있다", topic: "redis", type: "error" });
    assert.equal(again.merged, true);
    assert.equal(again.id, err.id);

    const hit = await ok("recall", { keywords: ["noauth"] });
    assert.equal(hit.success, true);
    assert.equal(hit.fragments[0].id, err.id);
    assert.equal(hit.fragments[0].type, "error");
    assert.equal(hit.fragments[0].importance, 0.9);
    assert.equal(hit.fragments[0].topic, "redis");
    assert.ok(hit.totalTokens > 0);
    assert.ok(hit.searchPath.some((p) => p.startsWith("L2:")), JSON.stringify(hit.searchPath));

    const ctx = await ok("context");
    assert.deepEqual(ctx.fragments.map((f) => f.id).sort(), [pref.id, err.id].sort());
    // what context gave this session is left out of its recalls (excludeSeen, default true)
    assert.ok(!(await ok("recall", { keywords: ["noauth"] })).fragments.some((f) => f.id === err.id));
    assert.equal((await ok("recall", { keywords: ["noauth"], excludeSeen: false })).fragments[0].id, err.id);

    // the error is solved: forget it (permanent needs force) and remember the procedure
    await callErr(client, "forget", { id: err.id }, [/force: true/]);
    const gone = await ok("forget", { id: err.id, force: true });
    assert.deepEqual(gone, { success: true, deleted: 1, ids: [err.id] });
    const proc = await ok("remember", { content: "Redis NOAUTH: set REDIS_PASSWORD in .env, then restart", topic: "redis",
      type: "procedure", keywords: ["redis", "noauth"] });
    assert.equal(proc.ttl_tier, "hot");
    const after = await ok("recall", { keywords: ["noauth"], text: "how do we fix redis auth" });
    assert.deepEqual(after.fragments.map((f) => f.id), [proc.id]);

    const refl = await ok("reflect", { summary: "Redis auth works again", decisions: ["Keep Redis 7"],
      errors_resolved: ["Cause: empty REDIS_PASSWORD → Resolution: set it in .env"], open_questions: ["Why was it empty?"],
      narrative_summary: "We found the Redis auth error, fixed the password and wrote the procedure down." });
    assert.equal(refl.count, 5);
    assert.deepEqual(refl.fragments.map((f) => f.type), ["fact", "decision", "error", "fact", "episode"]);
  });

  it("calls every other tool with Memento's arguments", async () => {
    const a = await ok("remember", { content: "Build fails: JAVA_HOME not set", topic: "build", type: "error" });
    const b = await ok("remember", { content: "Install temurin-17 in the CI image", topic: "build", type: "procedure" });
    const c = await ok("remember", { content: "The CI image ships without a JDK", topic: "build", type: "fact", linkedTo: [a.id] });
    assert.deepEqual(await ok("link", { fromId: a.id, toId: b.id, relationType: "resolved_by" }),
      { success: true, fromId: a.id, toId: b.id, relationType: "resolved_by" });
    await ok("link", { fromId: a.id, toId: c.id, relationType: "caused_by" });
    const g = await ok("graph_explore", { startId: a.id });
    assert.match(g.tree, /└─ caused_by → \[fact\] The CI image ships without a JDK/);
    assert.match(g.tree, /└─ resolved_by → \[procedure\] Install temurin-17/);

    const am = await ok("amend", { id: b.id, content: "Install temurin-21 in the CI image", importance: 0.95 });
    assert.deepEqual(am.updated, ["content", "importance"]);
    assert.equal(am.fragment.importance, 0.95);
    const h = await ok("fragment_history", { id: b.id });
    assert.equal(h.versions[0].content, "Install temurin-17 in the CI image");

    const batch = await ok("batch_remember", { fragments: [
      { content: "서울 오피스의 와이파이는 corp-5g 이다", topic: "사무실", type: "fact" },
      { content: "Staging has three nodes", topic: "infra", type: "fact", importance: 0.3 }] });
    assert.equal(batch.inserted, 2);
    const ko = await ok("recall", { topic: "사무실" });
    assert.equal(ko.fragments[0].topic, "사무실");

    const { stats } = await ok("memory_stats");
    assert.equal(stats.total, await total());
    assert.ok(stats.by_type.error >= 1 && stats.by_tier.permanent >= 1, JSON.stringify(stats));
    assert.equal(stats.topics.build, 3);

    const fb = await ok("tool_feedback", { tool_name: "recall", relevant: true, sufficient: true, fragment_ids: [c.id] });
    assert.equal(fb.adjusted[0].importance, 0.525);
    assert.equal(fb.tool_name, "recall");
    assert.equal((await ok("memory_stats")).stats.feedback.by_tool.recall.total, 1, "the feedback is stored");
    await callErr(client, "remember", { content: "x", topic: "t", type: "fact", affect: "angry" }, [/affect 'angry' is not an affect/]);
    assert.equal((await ok("search_traces", { keyword: "JAVA_HOME" })).count, 1);
    assert.ok((await ok("get_skill_guide", { section: "lifecycle" })).guide.lifecycle.includes("half-life"));
    const before = await total();
    const dry = await ok("memory_consolidate", { dryRun: true });
    assert.equal(dry.dryRun, true);
    assert.deepEqual(dry.steps.map((s) => s.step), ["anchor", "tiers", "merge", "decay", "compress", "contradictions", "gc"]);
    const cycle = await ok("memory_consolidate", {});
    assert.equal(cycle.success, true);
    assert.equal(cycle.dryRun, false);
    assert.equal(typeof cycle.changed, "number");
    assert.equal(await total(), before, "fresh, distinct fragments: nothing merged, compressed or collected");
    await callErr(client, "memory_consolidate", { workspace: 5 }, [/workspace/]);
    const story = await ok("reconstruct_history", { entity: "build" });
    assert.equal(story.ordered_timeline.length, 3);
    assert.equal(story.causal_chains[0].root_id, a.id);
    assert.equal(story.causal_chains[0].is_resolved, true);
    await callErr(client, "session_rotate", {}, [/no session id to rotate/, /came over stdio/]);
    const n = await total();
    await ok("forget", { topic: "build", force: true });
    assert.equal(await total(), n - 3);
  });
  it("serves Memento's resources and prompts", async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(),
      ["memory://active-session", "memory://config", "memory://stats", "memory://topics"]);
    const read = async (uri) => {
      const r = await client.readResource({ uri });
      assert.equal(r.contents[0].mimeType, "application/json");
      return JSON.parse(r.contents[0].text);
    };
    await ok("remember", { content: "배포는 금요일에 하지 않는다", topic: "배포", type: "decision" });
    assert.ok((await read("memory://topics")).includes("배포"));
    const stats = await read("memory://stats");
    assert.equal(stats.total, await total());
    const config = await read("memory://config");
    assert.equal(config.decay.floor, 0.05);
    assert.equal(config.decay.halfLifeDays.error, "never");
    assert.equal(config.limits.contentChars, 300);
    const active = await read("memory://active-session");
    assert.ok(active.fragmentsWritten >= 1, JSON.stringify(active));
    assert.ok(active.latest.some((f) => f.topic === "배포"), JSON.stringify(active));

    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ["analyze-session", "retrieve-relevant-memory", "onboarding"]);
    const p = await client.getPrompt({ name: "retrieve-relevant-memory", arguments: { topic: "redis" } });
    assert.match(p.messages[0].content.text, /'redis'/);
    assert.match(p.messages[0].content.text, /recall/);
    const a = await client.getPrompt({ name: "analyze-session", arguments: { focus: "errors" } });
    assert.match(a.messages[0].content.text, /Focus on errors/);
    // a missing topic, or one that is a paste rather than a topic, is answered with what to send, not echoed
    const none = await client.getPrompt({ name: "retrieve-relevant-memory", arguments: {} });
    assert.match(none.messages[0].content.text, /needs its topic argument/);
    const paste = await client.getPrompt({ name: "retrieve-relevant-memory", arguments: { topic: "x".repeat(200_000) } });
    assert.match(paste.messages[0].content.text, /200000 characters; send at most 500/);
    assert.ok(paste.messages[0].content.text.length < 200, "not echoed");
  });
});

describe("memento profile over HTTP", () => {
  const store = tempStore();
  const KEY = "mmcp_e2e_access_key_0123456789";
  let serve;

  before(async () => {
    process.env.MEMENTO_ACCESS_KEY = KEY; // Memento's own variable: the client keeps its configured key
    try {
      serve = await startServe(store, { extraArgs: ["--profile", "memento"] });
    } finally {
      delete process.env.MEMENTO_ACCESS_KEY;
    }
  });
  after(async () => { await serve?.stop(); });

  it("takes MEMENTO_ACCESS_KEY, runs the seed's flow, and narrows tools by X-Memento-Mode", async () => {
    const full = await connectHttp(serve.url, KEY, "memento-http");
    const reader = await connectHttp(serve.url, KEY, "memento-reader", { "X-Memento-Mode": "recall-only" });
    try {
      assert.equal((await full.client.listTools()).tools.length, TOOLS.length);
      const ctx = await full.client.callTool({ name: "context", arguments: {} });
      assert.ok(!ctx.isError, textOf(ctx));
      const saved = await full.client.callTool({ name: "remember", arguments: {
        content: "Redis NOAUTH 에러는 REDIS_PASSWORD 누락 때문이다", topic: "redis", type: "error", keywords: ["redis", "noauth"] } });
      assert.ok(!saved.isError, textOf(saved));
      const id = JSON.parse(textOf(saved)).id;

      const names = (await reader.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes("recall") && !names.includes("remember") && !names.includes("forget"), names.join(","));
      const found = JSON.parse(textOf(await reader.client.callTool({ name: "recall", arguments: { keywords: ["noauth"] } })));
      assert.equal(found.fragments[0].id, id);
      await assert.rejects(reader.client.callTool({ name: "forget", arguments: { id } }), /Unknown tool/);

      const gone = await full.client.callTool({ name: "forget", arguments: { id, force: true } }); // an error is permanent-tier
      assert.ok(!gone.isError, textOf(gone));
      const proc = await full.client.callTool({ name: "remember", arguments: {
        content: "Set REDIS_PASSWORD in .env, then restart", topic: "redis", type: "procedure" } });
      assert.ok(!proc.isError, textOf(proc));
      const refl = await full.client.callTool({ name: "reflect", arguments: { summary: "Fixed Redis auth" } });
      assert.ok(!refl.isError, textOf(refl));

      // session_rotate: the SDK client takes the new id from the response header and goes on; the old id is refused
      const before = full.transport.sessionId;
      const rotated = await full.client.callTool({ name: "session_rotate", arguments: { reason: "suspected_leak" } });
      assert.ok(!rotated.isError, textOf(rotated));
      const answer = JSON.parse(textOf(rotated));
      assert.equal(answer.success, true);
      assert.equal(answer.reason, "suspected_leak");
      assert.match(answer.newSessionId, /^[0-9a-f-]{36}$/);
      assert.notEqual(answer.newSessionId, before);
      assert.equal(full.transport.sessionId, answer.newSessionId, "the client switched to the announced id");
      const after = await full.client.callTool({ name: "recall", arguments: { keywords: ["redis"], excludeSeen: false } });
      assert.ok(!after.isError, textOf(after));
      assert.ok(JSON.parse(textOf(after)).fragments.length >= 1, textOf(after));
      const stale = await rawRequest(serve.url, { headers: { ...MCP_HEADERS, Authorization: `Bearer ${KEY}`, "Mcp-Session-Id": before },
        body: { jsonrpc: "2.0", id: 7, method: "tools/list" } });
      assert.equal(stale.status, 404, stale.body);
      assert.match(stale.body, /rotated with session_rotate/);
    } finally {
      await reader.close();
      await full.close();
    }
  });
});
