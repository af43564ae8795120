// The server-memory profile against the real thing: one scripted session (every tool, bad input
// included) is run against @modelcontextprotocol/server-memory from npm (the oracle, pinned in
// package.json) and against `engram mcp --profile server-memory`, and the answers are compared field
// by field. Where Engram differs on purpose the step says how and why (docs/migrate-server-memory.md):
//   unordered  search_nodes is ranked by Engram's retrieval, open_nodes lists entities in the order
//              asked for: the same entities and relations, compared without their order;
//   refused    Engram refuses what server-memory stores silently (an empty name, a relation to an
//              entity that does not exist, an empty search): server-memory answers, Engram says what
//              to send instead.
// Then: the same tool list (names, argument names and required fields, output fields, hints), the
// memory://knowledge-graph resource, `engram export --format server-memory` against server-memory's
// memory.jsonl, and a start with MEMORY_FILE_PATH set that imports that file.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { clientInfo, connectStdio, runCli, tempDir, tempStore, track } from "./lib/engram.mjs";
import { assertNoStackTrace, textOf } from "./lib/tools.mjs";

const require = createRequire(import.meta.url);
const UPSTREAM = join(require.resolve("@modelcontextprotocol/server-memory/package.json"), "..", "dist", "index.js");
const PROFILE = ["--profile", "server-memory"];

/** Starts the real server-memory over stdio with its file in a fresh temp dir. */
async function startUpstream(memoryFile) {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [UPSTREAM], env: { MEMORY_FILE_PATH: memoryFile }, stderr: "pipe",
  });
  transport.stderr.on("data", () => {});
  const client = new Client(clientInfo("oracle"));
  await client.connect(transport);
  const pid = transport.pid;
  track({ kill: (s) => { try { process.kill(pid, s); } catch { /* gone */ } }, once: () => {} });
  return { client, async close() { await client.close().catch(() => {}); } };
}

const ALICE = { name: "Alice", entityType: "person", observations: ["works at Acme Corp", "likes programming"] };
const BOB = { name: "Bob", entityType: "person", observations: ["works at TechCo"] };
const ACME = { name: "Acme Corp", entityType: "company", observations: ["tech company"] };
// names that are not slugs: spaces, punctuation, Korean; an observation with spaces at both ends kept exactly
const JOHN = { name: "John Smith", entityType: "person", observations: ["  speaks fluent Spanish  ", "graduated in 2019"] };
const IAPTIC = { name: "iaptic-server: uses TypeScript", entityType: "project", observations: [] };
const KOREAN = { name: "김민수", entityType: "사람", observations: ["서울에 산다", "커피를 좋아한다"] };

/**
 * The session. compare: "exact" (default) same isError, text and structuredContent; "unordered" the
 * same entities and relations in any order; "error" both refuse (and both messages match `message`);
 * "refused" server-memory accepts, Engram refuses with a message matching `message` (`why` says why).
 */
const SESSION = [
  { tool: "read_graph", args: {} },
  { tool: "create_entities", args: { entities: [ALICE, BOB, ACME, JOHN, IAPTIC, KOREAN] } },
  { tool: "create_entities", args: { entities: [{ ...ALICE, observations: ["new"] }, { name: "Carol", entityType: "person", observations: [] }] } },
  { tool: "create_entities", args: { entities: [] } },
  { tool: "create_relations", args: { relations: [
    { from: "Alice", to: "Acme Corp", relationType: "works_at" },
    { from: "Bob", to: "Acme Corp", relationType: "competitor" },
    { from: "John Smith", to: "김민수", relationType: "knows" },
    { from: "Alice", to: "Bob", relationType: "knows" },
    { from: "Alice", to: "Bob", relationType: "works_with" },
  ] } },
  { tool: "create_relations", args: { relations: [{ from: "Alice", to: "Bob", relationType: "knows" }, { from: "Carol", to: "Alice", relationType: "knows" }] } },
  { tool: "add_observations", args: { observations: [
    { entityName: "Alice", contents: ["likes coffee", "works at Acme Corp"] },
    { entityName: "김민수", contents: ["개발자다"] },
  ] } },
  { tool: "add_observations", args: { observations: [{ entityName: "Alice", contents: ["likes coffee", "has a dog"] }] } },
  { tool: "delete_observations", args: { deletions: [{ entityName: "Alice", observations: ["likes coffee", "not there"] }] } },
  { tool: "delete_observations", args: { deletions: [{ entityName: "Ghost", observations: ["x"] }] } },
  { tool: "delete_relations", args: { relations: [{ from: "Alice", to: "Bob", relationType: "knows" }, { from: "Ghost", to: "Alice", relationType: "x" }] } },
  { tool: "read_graph", args: {} },
  { tool: "search_nodes", args: { query: "Acme" }, compare: "unordered" },
  { tool: "search_nodes", args: { query: "ALICE" }, compare: "unordered" },
  { tool: "search_nodes", args: { query: "programming" }, compare: "unordered" },
  { tool: "search_nodes", args: { query: "company" }, compare: "unordered" },
  { tool: "search_nodes", args: { query: "서울에" }, compare: "unordered" },
  { tool: "search_nodes", args: { query: "zzyzxnothing" } },
  { tool: "open_nodes", args: { names: ["Bob", "Nope", "Alice"] }, compare: "unordered" },
  { tool: "open_nodes", args: { names: ["Carol"] } },
  { tool: "open_nodes", args: { names: [] } },
  // bad input
  { tool: "create_entities", args: {}, compare: "error", message: /entities/ },
  { tool: "create_entities", args: { entities: [{ name: "Dave" }] }, compare: "error", message: /entityType/ },
  { tool: "create_entities", args: { entities: "Dave" }, compare: "error", message: /entities/ },
  { tool: "create_relations", args: { relations: [{ from: "Alice", to: "Bob" }] }, compare: "error", message: /relationType/ },
  { tool: "add_observations", args: { observations: [{ entityName: "Ghost", contents: ["x"] }] }, compare: "error", message: /Entity with name Ghost not found/ },
  { tool: "add_observations", args: { observations: [{ entityName: "Alice" }] }, compare: "error", message: /contents/ },
  { tool: "delete_entities", args: {}, compare: "error", message: /entityNames/ },
  { tool: "delete_observations", args: { deletions: [{ entityName: "Alice", observations: "x" }] }, compare: "error", message: /observations/ },
  { tool: "search_nodes", args: {}, compare: "error", message: /query/ },
  { tool: "open_nodes", args: { names: [1] }, compare: "error", message: /names/ },
  // the Java SDK answers a protocol error that does not name the tool (-32602 "Unknown tool: invalid_tool_name")
  { tool: "no_such_tool", args: {}, compare: "error", message: /unknown tool|not found/i },
  { tool: "create_entities", args: { entities: [{ name: "", entityType: "x", observations: [] }] }, compare: "refused",
    message: /name.*(empty|blank)/i, why: "an entity needs a name to be found again" },
  { tool: "create_entities", args: { entities: [{ name: "   ", entityType: "x", observations: [] }] }, compare: "refused",
    message: /name.*(empty|blank)/i, why: "an entity needs a name to be found again" },
  { tool: "create_relations", args: { relations: [{ from: "Alice", to: "Ghost", relationType: "knows" }] }, compare: "refused",
    message: /Entity with name Ghost not found.*create_entities/s, why: "a relation to nothing is lost data waiting to happen (server-memory's main branch refuses it too)" },
  // server-memory stored the blank names and the relation to Ghost; drop them so the graphs stay comparable
  { tool: "delete_entities", args: { entityNames: ["", "   "] }, compare: "refused", message: /entityNames.*(empty|blank)/is,
    why: "a blank name names no entity Engram could hold" },
  { tool: "delete_relations", args: { relations: [{ from: "Alice", to: "Ghost", relationType: "knows" }] } },
  { tool: "search_nodes", args: { query: "" }, compare: "refused", message: /query/, why: "an empty search would return the whole graph; read_graph does that" },
  // deletes
  { tool: "delete_entities", args: { entityNames: ["Bob", "Ghost"] } },
  { tool: "open_nodes", args: { names: ["Alice", "Acme Corp"] }, compare: "unordered" },
  { tool: "delete_entities", args: { entityNames: [] } },
  { tool: "read_graph", args: {} },
];

/** Sorted copies, for the unordered comparisons. */
function canonical(graph) {
  const key = (v) => JSON.stringify(v);
  return {
    entities: [...(graph.entities ?? [])].sort((a, b) => key(a).localeCompare(key(b))),
    relations: [...(graph.relations ?? [])].sort((a, b) => key(a).localeCompare(key(b))),
  };
}

async function call(client, tool, args) {
  try {
    return await client.callTool({ name: tool, arguments: args });
  } catch (e) {
    return { protocolError: e.message };
  }
}

describe("server-memory profile against @modelcontextprotocol/server-memory", { timeout: 170_000 }, () => {
  let oracle, engram, memoryFile, store;
  before(async () => {
    memoryFile = join(tempDir("server-memory-oracle-"), "memory.jsonl");
    store = tempStore();
    [oracle, engram] = await Promise.all([startUpstream(memoryFile),
      connectStdio(store, "server-memory", { mcpArgs: PROFILE })]);
  });
  after(async () => {
    await oracle?.close();
    await engram?.close();
  });

  it("lists the same nine tools with the same arguments, required fields, output fields and hints", async () => {
    const [theirs, ours] = await Promise.all([oracle.client.listTools(), engram.client.listTools()]);
    const byName = (list) => Object.fromEntries(list.tools.map((t) => [t.name, t]));
    const t = byName(theirs), o = byName(ours);
    assert.deepEqual(Object.keys(o).sort(), Object.keys(t).sort());
    // closed: whether other properties are allowed, compared for the output schemas (server-memory's are closed at
    // every level; Engram's input schemas are closed where server-memory's are open, a difference on purpose)
    const shape = (schema, closed) => schema?.type === "object"
      ? { props: Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, shape(v, closed)])), required: [...(schema.required ?? [])].sort(),
        ...(closed ? { closed: schema.additionalProperties === false } : {}) }
      : schema?.type === "array" ? { items: shape(schema.items, closed) } : schema?.type;
    for (const name of Object.keys(t)) {
      assert.deepEqual(shape(o[name].inputSchema), shape(t[name].inputSchema), `${name} input schema`);
      assert.deepEqual(shape(o[name].outputSchema, true), shape(t[name].outputSchema, true), `${name} output schema`);
      assert.deepEqual(o[name].annotations, t[name].annotations, `${name} annotations`);
      assert.equal(o[name].title, t[name].title, `${name} title`);
    }
  });

  it("answers the scripted session as server-memory does (differences on purpose listed per step)", async () => {
    for (const [i, step] of SESSION.entries()) {
      const where = `step ${i} ${step.tool}(${JSON.stringify(step.args).slice(0, 160)})`;
      const [theirs, ours] = [await call(oracle.client, step.tool, step.args), await call(engram.client, step.tool, step.args)];
      const compare = step.compare ?? "exact";
      // an unknown tool is a protocol error for Engram's SDK and an isError result for server-memory's
      const protocolOk = step.tool === "no_such_tool";
      assert.ok(!ours.protocolError || protocolOk, `${where}: Engram answered with a protocol error: ${ours.protocolError}`);
      if (compare === "error" || compare === "refused") {
        const message = ours.protocolError ?? textOf(ours);
        assert.ok(ours.isError === true || ours.protocolError, `${where}: Engram should refuse, got ${message.slice(0, 400)}`);
        assert.match(message, step.message, `${where}: Engram's message`);
        assertNoStackTrace(message, where);
        if (compare === "error") {
          assert.ok(theirs.isError === true || theirs.protocolError, `${where}: server-memory should refuse too`);
        } else {
          assert.ok(!theirs.isError, `${where}: server-memory accepts this (${step.why}); if it refuses now, make the step "error"`);
        }
        if (step.tool === "add_observations") assert.match(textOf(theirs), step.message, `${where}: server-memory's message`);
        continue;
      }
      assert.ok(!theirs.isError, `${where}: server-memory failed: ${textOf(theirs)}`);
      assert.ok(!ours.isError, `${where}: Engram failed: ${textOf(ours)}`);
      if (compare === "unordered") {
        assert.deepEqual(canonical(ours.structuredContent), canonical(theirs.structuredContent), `${where}: structuredContent`);
        assert.deepEqual(canonical(JSON.parse(textOf(ours))), canonical(JSON.parse(textOf(theirs))), `${where}: text`);
        // the same text format: JSON.stringify(value, null, 2) of what the structured content holds
        assert.equal(textOf(ours), JSON.stringify(ours.structuredContent, null, 2), `${where}: text format`);
      } else {
        assert.equal(textOf(ours), textOf(theirs), `${where}: text`);
        assert.deepEqual(ours.structuredContent, theirs.structuredContent, `${where}: structuredContent`);
      }
    }
  });

  it("serves memory://knowledge-graph as server-memory does", async () => {
    const [theirs, ours] = await Promise.all([oracle.client.listResources(), engram.client.listResources()]);
    const graphResource = (list) => list.resources.find((r) => r.uri === "memory://knowledge-graph");
    const t = graphResource(theirs), o = graphResource(ours);
    assert.ok(o, `Engram lists no memory://knowledge-graph: ${JSON.stringify(ours)}`);
    assert.equal(o.mimeType, t.mimeType);
    assert.equal(o.name, t.name);
    const [rt, ro] = await Promise.all([oracle.client.readResource({ uri: t.uri }), engram.client.readResource({ uri: t.uri })]);
    assert.equal(ro.contents[0].text, rt.contents[0].text);
    assert.equal(ro.contents[0].mimeType, rt.contents[0].mimeType);
  });

  it("exports the memory.jsonl server-memory wrote, and imports it at a start with MEMORY_FILE_PATH", async () => {
    await engram.close();
    engram = null;
    const theirs = readFileSync(memoryFile, "utf8");
    const exported = runCli(store, ["export", "--format", "server-memory"]);
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(exported.stdout.replace(/\n$/, ""), theirs);

    const fresh = tempStore();
    const started = await connectStdio(fresh, "server-memory-import", { mcpArgs: PROFILE, env: { MEMORY_FILE_PATH: memoryFile } });
    try {
      const [graph, oracleGraph] = await Promise.all([
        started.client.callTool({ name: "read_graph", arguments: {} }),
        oracle.client.callTool({ name: "read_graph", arguments: {} })]);
      assert.equal(textOf(graph), textOf(oracleGraph));
      assert.match(started.stderr.toString(), /imported \d+ entities/);
    } finally {
      await started.close();
    }
    // with ENGRAM_SERVER_MEMORY_SEARCH=unbounded, search_nodes is server-memory's own: the same answers, in the same order
    const unbounded = await connectStdio(fresh, "server-memory-unbounded", { mcpArgs: PROFILE,
      env: { ENGRAM_SERVER_MEMORY_SEARCH: "unbounded" } });
    try {
      for (const query of ["", "acme", "PERSON", "서울", "s", "zzyzx"]) {
        const [o, t] = [await unbounded.client.callTool({ name: "search_nodes", arguments: { query } }),
          await oracle.client.callTool({ name: "search_nodes", arguments: { query } })];
        assert.equal(textOf(o), textOf(t), `unbounded search_nodes(${JSON.stringify(query)})`);
        assert.deepEqual(o.structuredContent, t.structuredContent);
      }
    } finally {
      await unbounded.close();
    }
    // a second start does not import again (the store is no longer empty), so nothing doubles
    const again = await connectStdio(fresh, "server-memory-again", { mcpArgs: PROFILE, env: { MEMORY_FILE_PATH: memoryFile } });
    try {
      const graph = await again.client.callTool({ name: "read_graph", arguments: {} });
      assert.equal(textOf(graph), textOf(await oracle.client.callTool({ name: "read_graph", arguments: {} })));
      assert.doesNotMatch(again.stderr.toString(), /imported \d+ entities/);
    } finally {
      await again.close();
    }
  });
});
