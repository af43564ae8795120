// The mcp-brain-tools profile end to end: `engram mcp --profile brain` driven over stdio by the
// TypeScript SDK client. Every one of the 21 tools is called with valid arguments (answers checked,
// text is JSON.stringify(data, null, 2)), then with bad input (missing required fields, unknown
// entities, empty names, unknown zones), which must come back as isError with a message saying what
// to send. No chat model is configured: inspect_* and the filters take their deterministic paths.
// Last, `engram hook prompt` and `engram hook stop` read a Claude Code event on stdin from the same store.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { connectStdio, runCli, tempDir, tempStore } from "./lib/engram.mjs";
import { callErr, textOf } from "./lib/tools.mjs";

const TOOLS = ["inspect_files", "inspect_knowledge_graph", "create_entities", "update_entities", "delete_entities",
  "create_relations", "delete_relations", "search_nodes", "open_nodes", "add_observations", "mark_important",
  "get_recent", "list_zones", "create_zone", "delete_zone", "copy_entities", "move_entities", "merge_zones",
  "zone_stats", "verify_entity", "get_time_utc"];
const Z = { memory_zone: "default" };
const SEARCH = { informationNeeded: "what we know", reason: "e2e", ...Z };

describe("brain profile over stdio", () => {
  const store = tempStore();
  const work = tempDir(); // the server's working directory: inspect_files reads only under it
  let server;
  let client;

  before(async () => {
    server = await connectStdio(store, "brain-e2e", { mcpArgs: ["--profile", "brain"], cwd: work });
    client = server.client;
  });
  after(async () => { await server?.close(); });

  /** Calls a tool that must succeed; returns the parsed text, checked to be JSON.stringify(data, null, 2). */
  async function ok(name, args) {
    const r = await client.callTool({ name, arguments: args });
    assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
    const text = textOf(r);
    const data = JSON.parse(text);
    assert.equal(text, JSON.stringify(data, null, 2), `${name}: text is not JSON.stringify(data, null, 2)`);
    assert.deepEqual(r.structuredContent, data, `${name}: structured content is the same data`);
    return data;
  }

  it("lists brain-tools' 21 tools with their required fields and no resources or prompts", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS);
    const req = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema.required ?? []]));
    assert.deepEqual(req.search_nodes, ["query", "memory_zone", "informationNeeded", "reason"]);
    assert.deepEqual(req.create_entities, ["entities", "memory_zone"]);
    assert.deepEqual(req.inspect_files, ["file_paths", "information_needed", "include_lines", "keywords"]);
    assert.deepEqual(req.get_time_utc, []);
    assert.ok(tools.find((t) => t.name === "create_relations").inputSchema.properties.auto_create_missing_entities);
  });

  it("creates, updates and opens entities whose names are not slugs", async () => {
    const created = await ok("create_entities", { ...Z, entities: [
      { name: "iaptic-server", entityType: "Project", observations: ["uses TypeScript", "deploys to GKE with kubectl"] },
      { name: "John Smith", entityType: "Person", observations: ["prefers tabs"], reviewInterval: 30 },
      { name: "김민수", entityType: "사람", observations: ["서울에 산다"] },
    ] });
    assert.deepEqual(created, { success: true, entities: [
      { name: "iaptic-server", entityType: "Project" }, { name: "John Smith", entityType: "Person" },
      { name: "김민수", entityType: "사람" }] });
    const updated = await ok("update_entities", { ...Z, entities: [{ name: "John Smith", observations: ["works remotely"] }] });
    assert.deepEqual(updated.entities, [{ name: "John Smith", entityType: "Person" }]);
    const added = await ok("add_observations", { ...Z, name: "iaptic-server", observations: ["billing webhook retries 3 times"] });
    assert.deepEqual(added.observations_created, ["iaptic-server: billing webhook retries 3 times"]);
    const opened = await ok("open_nodes", { ...Z, names: ["John Smith", "김민수"] });
    assert.equal(opened.entities[0].confidence, "fresh");
    assert.equal(opened.entities[0].needsReview, undefined);
    assert.deepEqual(opened.entities[0].observations.map((o) => o.name), ["John Smith: prefers tabs", "John Smith: works remotely"]);
    assert.equal(opened.entities[1].name, "김민수");
  });

  it("relates entities across zones and creates missing ends as unknown", async () => {
    assert.deepEqual(await ok("create_zone", { name: "billing", shortDescription: "Billing", description: "the billing service" }),
      { success: true, zone: "billing", message: 'Zone "billing" created successfully' });
    const rel = await ok("create_relations", { ...Z, relations: [
      { from: "John Smith", to: "iaptic-server", type: "works_on" },
      { from: "iaptic-server", to: "invoice-job", toZone: "billing", type: "calls" }] });
    assert.deepEqual(rel.relations[1], { from: "iaptic-server", to: "invoice-job", type: "calls", fromZone: "default", toZone: "billing" });
    const job = await ok("open_nodes", { memory_zone: "billing", names: ["invoice-job"] });
    assert.equal(job.entities[0].entityType, "unknown");
    const del = await ok("delete_relations", { ...Z, relations: [{ from: "John Smith", to: "iaptic-server", type: "works_on" }] });
    assert.deepEqual(del.results, [{ from: "John Smith", to: "iaptic-server", type: "works_on", deleted: true }]);
  });

  it("searches with brain-tools' query syntax and freshness fields", async () => {
    const plain = await ok("search_nodes", { ...SEARCH, query: "TypeScript deploy" });
    assert.equal(plain.entities[0].name, "iaptic-server");
    assert.equal(plain.entities[0].confidence, "fresh");
    assert.equal(typeof plain.entities[0].daysSinceLastWrite, "number");
    const bool = await ok("search_nodes", { ...SEARCH, query: "(kubectl OR tabs) AND NOT remotely" });
    assert.deepEqual(bool.entities.map((e) => e.name), ["iaptic-server"]);
    const fuzzy = await ok("search_nodes", { ...SEARCH, query: "TypScript~1" });
    assert.deepEqual(fuzzy.entities.map((e) => e.name), ["iaptic-server"]);
    const wild = await ok("search_nodes", { ...SEARCH, query: "iapt*", includeObservations: true });
    assert.equal(wild.entities[0].observations.length, 3);
    const typed = await ok("search_nodes", { ...SEARCH, query: "*", entityTypes: ["PERSON"] });
    assert.deepEqual(typed.entities.map((e) => e.name), ["John Smith"]);
    for (const q of ['"unclosed', "(a OR", "AND", "name:", "a^^2"]) await ok("search_nodes", { ...SEARCH, query: q });
  });

  it("verifies, marks important and lists recent entities", async () => {
    const v = await ok("verify_entity", { ...Z, name: "iaptic-server" });
    assert.equal(v.entity.reviewInterval, 14);
    assert.equal(v.entity.verifyCount, 1);
    assert.equal(v.entity.confidence, "fresh");
    const m = await ok("mark_important", { ...Z, name: "iaptic-server", important: true });
    assert.equal(m.entity.relevanceScore, 10);
    assert.equal(m.auto_created, false);
    const recent = await ok("get_recent", { ...Z, limit: 2 });
    assert.equal(recent.total, 2);
    assert.equal((await ok("get_recent", { ...Z, limit: 0 })).total, 3, "limit 0 is the default, as brain-tools' params.limit || 20");
  });

  it("addresses one observation by the name it shows, as brain-tools' observation entities", async () => {
    const name = "John Smith: prefers tabs";
    const v = await ok("verify_entity", { ...Z, name });
    assert.deepEqual([v.entity.name, v.entity.verifyCount, v.entity.reviewInterval], [name, 1, 60], "its own 30 days (the entity's at creation), doubled");
    const opened = await ok("open_nodes", { ...Z, names: [name] });
    assert.deepEqual(opened.entities.map((e) => [e.name, e.entityType]), [[name, "observation"]]);
    const marked = await ok("mark_important", { ...Z, name, important: true });
    assert.equal(marked.entity.relevanceScore, 10);
    const deleted = await ok("delete_entities", { ...Z, names: [name] });
    assert.deepEqual(deleted.results, [{ name, deleted: true }]);
    const john = await ok("open_nodes", { ...Z, names: ["John Smith"] });
    assert.deepEqual(john.entities[0].observations.map((o) => o.name), ["John Smith: works remotely"]);
  });

  it("answers inspect_* deterministically without a model", async () => {
    const kg = await ok("inspect_knowledge_graph", { information_needed: "how is it deployed", keywords: ["kubectl", "GKE"] });
    assert.deepEqual(kg.entities, [{ name: "iaptic-server", entityType: "Project" }]);
    assert.match(kg.tentativeAnswer, /No model is configured/);
    const dir = join(work, "scripts");
    mkdirSync(dir);
    writeFileSync(join(dir, "deploy.sh"), "#!/bin/sh\nset -e\necho build\nkubectl apply -f gke.yaml\n");
    const files = await ok("inspect_files", { file_paths: ["scripts"], information_needed: "deploy target", include_lines: true,
      keywords: ["kubectl"] });
    assert.equal(files.results[0].filePath, join("scripts", "deploy.sh"));
    assert.deepEqual(files.results[0].lines, ["2\tset -e", "3\techo build", "4\tkubectl apply -f gke.yaml"]);
    const same = await ok("inspect_files", { file_paths: [dir], information_needed: "deploy target", include_lines: false,
      keywords: ["kubectl"] });
    assert.deepEqual(same.results[0].lineRanges, ["2-4"], "an absolute path inside the working directory is fine");
    const outside = tempDir();
    writeFileSync(join(outside, "secret.txt"), "kubectl token\n");
    for (const p of [join(outside, "secret.txt"), "../" + outside.split("/").pop() + "/secret.txt"]) {
      await callErr(client, "inspect_files", { file_paths: [p], information_needed: "x", include_lines: true, keywords: ["kubectl"] },
        [/outside the server's working directory/, /relative to it/]);
    }
  });

  it("manages zones: list, copy, move, merge, stats, delete", async () => {
    const zones = await ok("list_zones", {});
    assert.deepEqual(zones.zones.map((z) => z.name), ["default", "billing"]);
    const copied = await ok("copy_entities", { names: ["John Smith"], source_zone: "default", target_zone: "billing" });
    assert.deepEqual(copied.entities_copied, ["John Smith"]);
    await ok("create_zone", { name: "archive" });
    const moved = await ok("move_entities", { names: ["John Smith"], source_zone: "billing", target_zone: "archive" });
    assert.deepEqual(moved.entities_moved, ["John Smith"]);
    const merged = await ok("merge_zones", { source_zones: ["archive"], target_zone: "billing", delete_source_zones: true,
      overwrite_conflicts: "rename" });
    assert.deepEqual(merged.merged_zones, ["archive"]);
    const stats = await ok("zone_stats", { zone: "billing" });
    assert.equal(stats.entity_count, 3, "John Smith, invoice-job and John's observation (an entity in brain-tools)");
    assert.deepEqual(stats.entity_types, { Person: 1, observation: 1, unknown: 1 });
    assert.equal(stats.observation_count, 1);
    assert.deepEqual(await ok("delete_zone", { name: "billing", confirm: true }),
      { success: true, message: 'Zone "billing" deleted successfully' });
    assert.match((await ok("get_time_utc", {})).utc_time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await ok("delete_entities", { ...Z, names: ["김민수"] });
  });

  it("refuses bad input with isError and what to send", async () => {
    await callErr(client, "create_entities", { entities: [{ name: "x", entityType: "t" }] }, [/memory_zone is required/]);
    await callErr(client, "create_entities", { ...Z, entities: [{ name: "", entityType: "t" }] }, [/entities\[0\]\.name/]);
    await callErr(client, "create_entities", { ...Z, entities: [{ name: "iaptic-server", entityType: "t" }] },
      [/no entities were created/, /update_entities/]);
    await callErr(client, "create_entities", { memory_zone: "nowhere", entities: [{ name: "x", entityType: "t" }] },
      [/zone 'nowhere' does not exist/, /create_zone/]);
    await callErr(client, "delete_entities", { ...Z, names: ["  "] }, [/Entity names cannot be empty/]);
    await callErr(client, "add_observations", { ...Z, name: "ghost", observations: ["x"] }, [/not found/, /create the entity/]);
    await callErr(client, "update_entities", { ...Z, entities: [{ name: "ghost" }] }, [/not found/]);
    await callErr(client, "open_nodes", { ...Z }, [/names is required/]);
    await callErr(client, "search_nodes", { query: "x", ...Z }, [/informationNeeded is required/]);
    await callErr(client, "verify_entity", { ...Z, name: "ghost" }, [/not found/]);
    await callErr(client, "mark_important", { ...Z, name: "ghost", important: true }, [/auto_create/]);
    await callErr(client, "create_relations", { ...Z, relations: [{ from: "a", to: "b", type: "t" }],
      auto_create_missing_entities: false }, [/failedRelations/, /not found/]);
    await callErr(client, "create_relations", { ...Z, relations: [{ from: "iaptic-server", to: "x", toZone: "nowhere", type: "t" }] },
      [/nowhere/]);
    await callErr(client, "delete_relations", { relations: [{ from: "a", type: "t" }] }, [/relations\[0\]\.to/]);
    await callErr(client, "inspect_knowledge_graph", { information_needed: "x", keywords: [] }, [/keywords/]);
    await callErr(client, "inspect_files", { file_paths: ["."], information_needed: "x", keywords: ["a"] }, [/include_lines/]);
    await callErr(client, "create_zone", { name: "default" }, [/default/]);
    await callErr(client, "delete_zone", { name: "x", confirm: false }, [/Confirmation required/]);
    await callErr(client, "copy_entities", { names: ["ghost"], source_zone: "default", target_zone: "default" }, [/source zone/]);
    await callErr(client, "move_entities", { names: ["x"], source_zone: "nowhere", target_zone: "default" }, [/nowhere/]);
    await callErr(client, "merge_zones", { source_zones: ["default"], target_zone: "default" }, [/target zone/]);
    await callErr(client, "zone_stats", { zone: "nowhere" }, [/does not exist/]);
    await callErr(client, "get_recent", { ...Z, limit: -1 }, [/limit/]);
    await callErr(client, "list_zones", { reason: 5 }, [/reason must be a string/]);
    await callErr(client, "get_time_utc", { zone: "x" }, [/not an argument/]);
  });
});

describe("brain hooks from the CLI", () => {
  it("hook prompt prints the relevant memories; hook stop without a model does nothing; both exit 0", async () => {
    const store = tempStore();
    const s = await connectStdio(store, "brain-hooks", { mcpArgs: ["--profile", "brain"] });
    await s.client.callTool({ name: "create_entities", arguments: { ...Z, entities: [
      { name: "iaptic-server", entityType: "Project", observations: ["deploys to GKE with kubectl"] }] } });
    await s.close();
    const event = JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: "how do we deploy the iaptic-server again", cwd: "/tmp" });
    const prompt = runCli(store, ["hook", "prompt"], { input: event });
    assert.equal(prompt.status, 0, prompt.stderr);
    assert.match(prompt.stdout, /^<memory zone="default">\n {2}- \*\*iaptic-server\*\* \(Project\)\n {4}- deploys to GKE with kubectl\n<\/memory>\n$/);
    const filler = runCli(store, ["hook", "prompt"], { input: JSON.stringify({ prompt: "ok thanks" }) });
    assert.equal(filler.status, 0);
    assert.equal(filler.stdout, "");
    const broken = runCli(store, ["hook", "prompt"], { input: "not json" });
    assert.equal(broken.status, 0);
    const stop = runCli(store, ["hook", "stop"], { input: JSON.stringify({ transcript_path: "/no/such/file" }) });
    assert.equal(stop.status, 0);
    assert.equal(stop.stdout, "");
  });
});
