// The tool-level checks shared by the stdio and the HTTP tests: every native tool called with valid
// arguments (meaningful results asserted), then every kind of bad input. Registers node:test cases
// inside the caller's describe(); getClient() returns the connected SDK client.
import assert from "node:assert/strict";
import { it } from "node:test";
import { uniqueWord } from "./engram.mjs";

export const TOOL_NAMES = ["amend", "context", "explore", "forget", "link", "pin", "recall", "remember", "stats"];
export const ID_PATTERN = /^m_[a-z2-7]{10}$/;
/** Text that must never reach a client: Java stack traces or their serialized form. */
export const STACK_TRACE_MARKERS = ["at org.", "stackTrace", ".java:"];

export function textOf(result) {
  return (result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

export function assertNoStackTrace(text, where) {
  for (const m of STACK_TRACE_MARKERS) {
    assert.ok(!text.includes(m), `${where} leaks stack-trace text '${m}':\n${text.slice(0, 2000)}`);
  }
}

const show = (v) => JSON.stringify(v, null, 1)?.slice(0, 3000);

/** Calls a tool that must succeed; returns its structuredContent (which must be an object). */
export async function callOk(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(!r.isError, `${name}(${show(args)}) failed: ${textOf(r)}`);
  assert.equal(typeof r.structuredContent, "object", `${name} returned no structuredContent: ${show(r)}`);
  assert.ok(r.structuredContent !== null, `${name} returned null structuredContent`);
  return r.structuredContent;
}

/**
 * Calls a tool that must fail with a tool-level error (isError:true, not a protocol error) whose
 * message matches every pattern; returns the message.
 */
export async function callErr(client, name, args, patterns) {
  let r;
  try {
    r = await client.callTool({ name, arguments: args });
  } catch (e) {
    assert.fail(`${name}(${show(args)}) threw a protocol error instead of returning isError:true: ${e.message}`);
  }
  const msg = textOf(r);
  assert.equal(r.isError, true, `${name}(${show(args)}) should fail, got: ${show(r)}`);
  assert.ok(msg.trim().length > 0, `${name}: error result has no message`);
  for (const p of patterns) assert.match(msg, p, `${name}(${show(args).slice(0, 200)}): error message should match ${p}`);
  assertNoStackTrace(msg, `${name} error message`);
  return msg;
}

export function idOf(sc) {
  return sc.id;
}

export async function recallResults(client, args) {
  const sc = await callOk(client, "recall", args);
  assert.ok(Array.isArray(sc.results), `recall structuredContent.results is not an array: ${show(sc)}`);
  return sc.results;
}

export const keysOf = (results) => results.map((r) => r.key);

/** The array under one of the given property names, or a failure showing what came back. */
function arrayField(sc, names, what) {
  for (const n of names) if (Array.isArray(sc?.[n])) return sc[n];
  assert.fail(`${what}: none of [${names.join(", ")}] is an array in ${show(sc)}`);
}

const keyOfEntry = (e) => e?.key;
const contentOfEntry = (e) => e?.content;

/** Registers every valid-call check. Tests run in order and build on each other's memories. */
export function validCallTests(getClient) {
  const w = {
    a: uniqueWord("zqa"), a2: uniqueWord("zqb"), b: uniqueWord("zqc"), pin: uniqueWord("zqp"),
    p1: uniqueWord("zqd"), p2: uniqueWord("zqe"), p3: uniqueWord("zqf"), s: uniqueWord("zqs"),
  };
  const A = { key: "e2e-build-a", content: `The build uses Maven with the ${w.a} flag for reproducible jars.` };
  const B = { key: "e2e-build-b", content: `Release tags are signed with the ${w.b} key before publishing.` };
  const state = {};

  it("tools/list returns exactly the 9 native tools, each with input and output schema and annotations", async () => {
    const { tools } = await getClient().listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
    for (const t of tools) {
      assert.equal(t.inputSchema?.type, "object", `${t.name}.inputSchema`);
      assert.equal(typeof t.outputSchema, "object", `${t.name} has no outputSchema`);
      assert.equal(t.outputSchema?.type, "object", `${t.name}.outputSchema.type`);
      assert.equal(typeof t.annotations, "object", `${t.name} has no annotations`);
      assert.ok(t.annotations !== null && Object.keys(t.annotations).length > 0, `${t.name} annotations are empty`);
      assert.ok(typeof t.description === "string" && t.description.length > 0, `${t.name} has no description`);
    }
    const req = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema.required ?? []]));
    assert.ok(req.remember.includes("content"), "remember requires content");
    for (const k of ["forget", "amend", "explore", "pin"]) assert.ok(req[k].includes("key"), `${k} requires key`);
    assert.ok(req.link.includes("from") && req.link.includes("to"), "link requires from and to");
  });

  it("remember returns the new memory's id", async () => {
    const sc = await callOk(getClient(), "remember", { ...A, type: "decision", tags: ["build", "maven"] });
    state.idA = idOf(sc);
    assert.match(String(state.idA), ID_PATTERN, `remember should return an id: ${show(sc)}`);
    const scB = await callOk(getClient(), "remember", { ...B, type: "fact", importance: "high" });
    state.idB = idOf(scB);
    assert.match(String(state.idB), ID_PATTERN);
    assert.notEqual(state.idA, state.idB);
  });

  it("recall (ranked) finds it by a word of its content", async () => {
    const results = await recallResults(getClient(), { query: w.a });
    assert.ok(results.length >= 1, `recall '${w.a}' found nothing`);
    const top = results[0];
    assert.equal(top.key, A.key);
    assert.equal(top.id, state.idA);
    assert.equal(top.type, "decision");
    assert.equal(typeof top.score, "number");
    assert.ok(String(top.content).includes(w.a), `content should be returned: ${show(top)}`);
    assert.ok(!keysOf(results).includes(B.key), "an unrelated memory matched");
  });

  it("recall mode index lists the memory without needing its content", async () => {
    const results = await recallResults(getClient(), { query: w.a, mode: "index" });
    assert.ok(keysOf(results).includes(A.key), `index mode: ${show(results)}`);
    const all = await recallResults(getClient(), { mode: "index" });
    assert.ok(keysOf(all).includes(A.key) && keysOf(all).includes(B.key), `index without query lists all: ${show(all)}`);
  });

  it("recall mode ids fetches exactly the given memories", async () => {
    const results = await recallResults(getClient(), { mode: "ids", ids: [state.idB] });
    assert.equal(results.length, 1, show(results));
    assert.equal(results[0].id, state.idB);
    assert.equal(results[0].key, B.key);
    assert.ok(String(results[0].content).includes(w.b));
  });

  it("recall with explain gives the reasons for the score", async () => {
    const results = await recallResults(getClient(), { query: w.a, explain: true });
    const top = results[0];
    assert.equal(top.key, A.key);
    assert.ok(typeof top.reason === "string" && top.reason.trim().length > 0,
      `explain:true gave no reason on the result: ${show(top)}`);
  });

  it("link then explore shows the neighbour", async () => {
    await callOk(getClient(), "link", { from: A.key, to: B.key, type: "depends_on" });
    const sc = await callOk(getClient(), "explore", { key: A.key });
    assert.equal(sc.center?.key, A.key, `explore centre: ${show(sc)}`);
    // every write records the MCP client's name (and its session, where the transport has one)
    assert.ok(typeof sc.center?.session === "string" && sc.center.session.startsWith("engram-e2e-"),
      `remember should record the client's session: ${show(sc.center)}`);
    const neighbours = arrayField(sc, ["neighbours"], "explore");
    assert.ok(neighbours.map(keyOfEntry).includes(B.key), `explore(${A.key}) should list ${B.key}: ${show(sc)}`);
  });

  it("amend changes the content and keeps the old version in the history", async () => {
    const newContent = `The build uses Maven with the ${w.a} and ${w.a2} flags for reproducible jars.`;
    const sc = await callOk(getClient(), "amend", { key: A.key, content: newContent });
    const history = arrayField(sc, ["history"], "amend");
    assert.ok(history.some((v) => contentOfEntry(v) === A.content), `amend history should hold the old content: ${show(sc)}`);
    const ex = await callOk(getClient(), "explore", { key: A.key });
    const versions = arrayField(ex, ["versions"], "explore");
    assert.ok(versions.some((v) => contentOfEntry(v) === A.content), `explore should show the earlier version: ${show(ex)}`);
    const results = await recallResults(getClient(), { query: w.a2 });
    assert.equal(results[0]?.key, A.key, "the amended content is searchable");
    assert.equal(results[0].id, state.idA, "amend keeps the id");
  });

  it("pin puts the pinned memory first in recall", async () => {
    const mems = [
      { key: "e2e-pin-1", content: `Deploy window ${w.pin} ${w.pin} ${w.pin} opens at night for ${w.p1} services.` },
      { key: "e2e-pin-2", content: `Cache invalidation ${w.pin} ${w.pin} uses the ${w.p2} queue.` },
      { key: "e2e-pin-3", content: `Old logging ${w.pin} goes through ${w.p3} collectors.` },
    ];
    for (const m of mems) await callOk(getClient(), "remember", m);
    const before = keysOf(await recallResults(getClient(), { query: w.pin }));
    assert.equal(before.length, 3, `all three should match '${w.pin}': ${before}`);
    const target = before[before.length - 1]; // the one ranked last without a pin
    state.pinnedKey = target;
    state.pinnedWord = { "e2e-pin-1": w.p1, "e2e-pin-2": w.p2, "e2e-pin-3": w.p3 }[target];
    await callOk(getClient(), "pin", { key: target, priority: 3 });
    const after = keysOf(await recallResults(getClient(), { query: w.pin }));
    assert.equal(after[0], target, `after pinning ${target} it should come first, got ${after}`);
  });

  it("forget soft hides, restore brings back, hard deletes, restore undoes the hard delete", async () => {
    const c = getClient();
    await callOk(c, "forget", { key: B.key, action: "soft" });
    assert.ok(!keysOf(await recallResults(c, { query: w.b })).includes(B.key), "soft-forgotten memory is still recalled");
    await callOk(c, "forget", { key: B.key, action: "restore" });
    // (pinned memories join every recall of their zone, so look for the key rather than the top slot)
    assert.ok(keysOf(await recallResults(c, { query: w.b })).includes(B.key), "restored memory is not recalled");
    const hard = await callOk(c, "forget", { key: B.key, action: "hard" });
    assert.ok(Date.parse(hard.restorable_until) > Date.now(), `hard forget names its restore window: ${show(hard)}`);
    assert.ok(!keysOf(await recallResults(c, { query: w.b })).includes(B.key), "hard-deleted memory is still recalled");
    const ids = await c.callTool({ name: "recall", arguments: { mode: "ids", ids: [state.idB] } });
    assert.ok(ids.isError || !(ids.structuredContent?.results ?? []).some((r) => r.id === state.idB), "hard-deleted id still fetched");
    const back = await callOk(c, "forget", { key: B.key, action: "restore" });
    assert.equal(back.id, state.idB, `restore brings back the same memory: ${show(back)}`);
    assert.ok(keysOf(await recallResults(c, { query: w.b })).includes(B.key), "memory restored after a hard delete is not recalled");
    await callOk(c, "forget", { key: B.key, action: "hard" });
    await callErr(c, "forget", { key: "e2e-never-stored", action: "restore" }, [/e2e-never-stored/, /7 days/]);
  });

  it("stats counts the memories of a zone", async () => {
    for (let i = 0; i < 3; i++) {
      await callOk(getClient(), "remember", {
        key: `e2e-stat-${i}`, zone: "e2e-stats", content: `Stat sample ${i} ${uniqueWord("zqs")} ${w.s} observed.`,
      });
    }
    const sc = await callOk(getClient(), "stats", { zone: "e2e-stats" });
    assert.equal(sc.total, 3, `stats(e2e-stats).total: ${show(sc)}`);
    const all = await callOk(getClient(), "stats", {});
    assert.ok(all.total >= 3 + 4, `stats().total counts every zone: ${show(all)}`);
    // zones isolate: default-zone recall does not see e2e-stats memories
    const leaked = keysOf(await recallResults(getClient(), { query: w.s })).filter((k) => k.startsWith("e2e-stat-"));
    assert.deepEqual(leaked, [], "another zone's memories leaked into the default zone");
    assert.deepEqual(keysOf(await recallResults(getClient(), { query: w.s, zone: "e2e-stats" })).sort(),
      ["e2e-stat-0", "e2e-stat-1", "e2e-stat-2"]);
  });

  it("context includes the pinned memory", async () => {
    const r = await getClient().callTool({ name: "context", arguments: { budget_tokens: 2000 } });
    assert.ok(!r.isError, `context failed: ${textOf(r)}`);
    const all = textOf(r) + JSON.stringify(r.structuredContent ?? {});
    assert.ok(all.includes(state.pinnedWord), `context should contain pinned ${state.pinnedKey}: ${all.slice(0, 3000)}`);
  });

  it("resources engram://primer (the briefing) and engram://stats (JSON) are listed and readable", async () => {
    const { resources } = await getClient().listResources();
    const uris = resources.map((r) => r.uri);
    for (const uri of ["engram://primer", "engram://stats"]) assert.ok(uris.includes(uri), `${uri} not in resources/list: ${uris}`);
    const read = async (uri) => {
      const { contents } = await getClient().readResource({ uri });
      assert.ok(contents.length >= 1 && typeof contents[0].text === "string", `${uri} has no text contents`);
      assert.doesNotMatch(contents[0].text, /unavailable/i, `${uri}: ${contents[0].text}`);
      return contents[0].text;
    };
    const primer = await read("engram://primer");
    assert.ok(primer.includes(state.pinnedWord), `the primer should brief the pinned memory ${state.pinnedKey}:\n${primer}`);
    const statsText = await read("engram://stats");
    let stats;
    try { stats = JSON.parse(statsText); } catch { assert.fail(`engram://stats is not JSON: ${statsText}`); }
    assert.ok(stats.total >= 7, `engram://stats total: ${statsText}`);
  });
}

/** Registers the bad-input checks: each must be a tool error naming the field, and the server must go on. */
export function badInputTests(getClient) {
  const stillAnswers = async (after) => {
    const r = await getClient().callTool({ name: "stats", arguments: {} });
    assert.ok(!r.isError, `server did not answer a valid call after ${after}: ${textOf(r)}`);
  };
  const cases = [
    ["remember without content", "remember", { key: "no-content" }, [/content/]],
    ["recall with limit of the wrong type", "recall", { query: "anything", limit: "ten" }, [/limit/]],
    ["forget of an unknown key", "forget", { key: "no-such-key" }, [/no-such-key/]],
    ["remember over the 8000-character limit", "remember", { content: "word ".repeat(1700) + "x".repeat(100) }, [/content/, /8[,.]?000/]],
    ["remember with an invalid TTL", "remember", { content: "Temporary note about the e2e ttl check.", ttl: "tomorrow-ish" }, [/ttl/i, /tomorrow-ish/]],
    ["recall mode ids with a malformed id", "recall", { mode: "ids", ids: ["!!bad"] }, [/ids/, /!!bad/]],
    ["recall in an unknown zone", "recall", { query: "anything", zone: "never-used-zone" }, [/never-used-zone/, /unknown|not found|does not exist|no such/i]],
  ];
  for (const [title, tool, args, patterns] of cases) {
    it(`bad input: ${title} → isError naming the field`, async () => {
      await callErr(getClient(), tool, args, patterns);
      await stillAnswers(title);
    });
  }
  it("bad input left no partial write behind", async () => {
    const all = await recallResults(getClient(), { mode: "index", limit: 100 });
    for (const k of ["no-content"]) assert.ok(!keysOf(all).includes(k), `${k} was stored`);
    const ttl = (await recallResults(getClient(), { query: "temporary e2e ttl check" }))
      .filter((r) => String(r.content).includes("e2e ttl check"));
    assert.deepEqual(ttl, [], "the memory with the invalid TTL was stored");
  });
}
