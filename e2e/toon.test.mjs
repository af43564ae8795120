// The toon-memory profile end to end: `engram mcp --profile toon` driven over stdio by the TypeScript
// SDK client. All 38 of toon's tools are listed with toon's hints; every tool is called: the built ones
// with valid arguments (toon's text checked: the Saved block, index lines, layouts, Total entries,
// Memory Health /100, the System Primer); bad input comes back isError naming the argument, and nothing
// is half-written. memory_encrypt leaves no memory's word readable under the store directory and seals
// the folder's data.toon in toon's form; a restart needs the key (without it, or with another, tools
// answer a clear error and nothing is written); memory_decrypt brings everything back. Last, a
// server started in a project with a .toon-memory folder imports it at first start (escaped | and
// newlines, ids kept), serves the three toon://memory resources, and writes changes back into that data.toon.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { connectStdio, runCli, tempDir, tempStore } from "./lib/engram.mjs";
import { callErr, textOf } from "./lib/tools.mjs";

const TOOLS = ["memory_remember", "memory_recall", "memory_forget", "memory_stats", "memory_diff", "memory_suggest",
  "memory_smart_recall", "memory_summary", "memory_archive", "memory_encrypt", "memory_decrypt", "memory_secret",
  "memory_captured", "memory_consolidate", "memory_sessions", "context_brief", "context_generate", "context_diff",
  "context_focus", "context_health", "context_export", "memory_backup", "memory_primer", "memory_compress",
  "memory_export_gist", "memory_import_gist", "memory_export_global", "memory_import_global", "memory_merge_sessions",
  "memory_graph_path", "memory_checkpoint", "memory_pin", "memory_unpin", "memory_search", "memory_tag",
  "memory_reflect", "memory_promote", "memory_visualize"];

describe("toon profile over stdio", () => {
  const project = tempDir("engram-toon-");
  let server;
  let client;

  before(async () => {
    server = await connectStdio(tempStore(), "toon-e2e", { mcpArgs: ["--profile", "toon"], cwd: project });
    client = server.client;
  });
  after(async () => { await server?.close(); });

  async function ok(name, args = {}) {
    const r = await client.callTool({ name, arguments: args });
    assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
    return textOf(r);
  }

  it("lists toon's 38 tools in toon's order with toon's hints", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), TOOLS);
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const n of ["memory_forget", "memory_archive", "memory_encrypt", "memory_decrypt", "memory_import_gist", "memory_consolidate"]) {
      assert.equal(by[n].annotations.destructiveHint, true, n);
    }
    for (const n of ["memory_stats", "memory_primer", "context_brief", "context_health", "memory_reflect", "memory_compress"]) {
      assert.equal(by[n].annotations.readOnlyHint, true, n);
    }
    assert.deepEqual(by.memory_remember.inputSchema.required, ["category", "key", "content"]);
    assert.equal(by.memory_remember.inputSchema.properties.tags.type, "string", "tags are toon's ';' string");
  });

  it("remembers, recalls in every layout, fetches by ids in order and forgets", async () => {
    writeFileSync(join(project, "types.ts"), "export {}\n");
    const saved = await ok("memory_remember", { category: "decision", key: "use-zod", content: "Use Zod for validation",
      file: "types.ts", tags: "validation;api", links: "" });
    assert.match(saved, /^🧠 Saved: decision\/use-zod \(m_[a-z2-7]{10}\)\nUse Zod for validation\n/);
    assert.match(saved, /🔎 Evidence: verified/);
    await ok("memory_remember", { category: "bug", key: "zod-date-bug", content: "Zod coerces empty dates to epoch; validate first",
      links: "related:use-zod" });
    const index = await ok("memory_recall", { query: "zod", mode: "index" });
    assert.match(index, /\[1\] [a-z-]+ \(m_[a-z2-7]{10}\) · (decision|bug) · \d{4}-\d\d-\d\d · \d+%/);
    assert.ok(!index.includes("coerces empty dates"), index);
    const ids = await ok("memory_recall", { ids: "zod-date-bug, nope-key;use-zod" });
    assert.ok(ids.indexOf("zod-date-bug") < ids.indexOf("use-zod"), ids);
    assert.ok(!ids.includes("nope-key"), ids);
    assert.match(await ok("memory_recall", { query: "zod", budget: "tiny" }), /^\[1\] (decision|bug)\//);
    assert.match(await ok("memory_recall", { query: "zod", compact: true }), /^\[1\] (decision|bug)\/.+\n  /);
    assert.match(await ok("memory_search", { query: "zod", tags: "api" }), /^\[decision\] use-zod/);
    assert.ok((await ok("memory_smart_recall", { intent: "validate dates with zod" })).includes("zod-date-bug"));
    assert.ok((await ok("memory_suggest", { context: "zod validation" })).includes("use-zod"));
    assert.match(await ok("memory_forget", { key: "zod-date-bug" }), /marked obsolete/);
    assert.ok(!(await ok("memory_recall", { query: "coerces dates" })).includes("zod-date-bug"));
    assert.match(await ok("memory_forget", { key: "zod-date-bug", action: "restore" }), /restored/);
    assert.match(await ok("memory_tag", { action: "add", tags: "dates", ids: "zod-date-bug" }), /zod-date-bug: dates/);
    assert.match(await ok("memory_pin", { key: "use-zod", priority: 3 }), /priority 3/);
    assert.match(await ok("memory_recall", { ids: "use-zod" }), /use-zod 📌3/);
    assert.match(await ok("memory_unpin", { key: "use-zod" }), /Unpinned: use-zod/);
    assert.match(await ok("memory_graph_path", { from: "zod-date-bug", to: "use-zod" }), /\[bug\] zod-date-bug → \[decision\] use-zod/);
  });

  it("answers the reports and briefings in toon's words", async () => {
    assert.match(await ok("memory_stats"), /Total entries: 2/);
    assert.match(await ok("memory_diff", { since: "24h" }), /Changes since 24h \(2\)/);
    assert.match(await ok("memory_primer"), /^=== System Primer ===/);
    assert.match(await ok("context_health"), /Memory Health: \d+\/100/);
    const brief = await ok("context_brief");
    for (const s of ["## Memory", "## Top memories", "## Sessions"]) assert.ok(brief.includes(s), brief);
    assert.match(await ok("context_generate", { task: "validation" }), /## Project[\s\S]*## Memory/);
    assert.match(await ok("context_diff"), /Changes since 24h/);
    assert.match(await ok("context_focus", { task: "zod validation" }), /## Focus[\s\S]*types\.ts/);
    assert.match(await ok("context_export", { format: "compact" }), /toon-memory export/);
    assert.match(await ok("memory_sessions"), /Active sessions \(1\)/);
    assert.match(await ok("memory_reflect", { category: "decision", limit: 3 }), /Memory reflect — 1 entries/);
    assert.match(await ok("memory_compress", { count: 2 }), /Compress these 2 entries/);
    assert.match(await ok("memory_consolidate", { mode: "low-quality", dryRun: true, minQuality: 1 }), /Compression candidates/);
    assert.match(await ok("memory_archive"), /Nothing to archive/);
    assert.match(await ok("memory_checkpoint", { note: "e2e" }), /Checkpoint saved: checkpoint-/);
    const global = join(project, "global.toon");
    assert.match(await ok("memory_export_global", { target: global }), /Exported 3 entries/);
    assert.match(await ok("memory_import_global", { source: global }), /Added: 0 · Updated: 0 · Unchanged: 3/);
  });

  it("refuses bad input by name with nothing written", async () => {
    await callErr(client, "memory_encrypt", {}, [/Set TOON_MEMORY_KEY in environment before encrypting/, /nothing was changed/]);
    assert.equal(await ok("memory_decrypt", { key: "" }), "Encryption is not enabled");
    await callErr(client, "memory_remember", { category: "idea", key: "k", content: "c" }, [/category/]);
    await callErr(client, "memory_remember", { category: "decision", content: "no key" }, [/key/]);
    await callErr(client, "memory_remember", { category: "decision", key: 42, content: "c" }, [/key/]);
    await callErr(client, "memory_recall", { query: "x", budget: "huge" }, [/budget/]);
    await callErr(client, "memory_recall", { query: "x", hops: 5 }, [/hops/]);
    await callErr(client, "memory_forget", { key: "no-such-entry" }, [/no-such-entry/]);
    await callErr(client, "memory_forget", { key: "use-zod", action: "supersede", new_key: "missing-one" }, [/new_key/]);
    await callErr(client, "memory_tag", { action: "flip", tags: "a", ids: "use-zod" }, [/action/]);
    await callErr(client, "memory_diff", { since: "last week" }, [/since/]);
    await callErr(client, "memory_import_global", { merge: false, source: "x" }, [/merge/]);
    await callErr(client, "memory_export_gist", {}, [/GITHUB_TOKEN is not set/]);
    await callErr(client, "memory_import_gist", { gist_id: "../../etc" }, [/gist_id/]);
    assert.match(await ok("memory_stats"), /Total entries: 3/, "the refused calls wrote nothing");
    assert.ok(!(await ok("memory_recall", { ids: "use-zod" })).includes("Superseded"), "a refused supersede left the entry as it was");
  });
});

describe("toon profile: a .toon-memory folder imported at first start", () => {
  const project = tempDir("engram-toon-import-");
  let server;

  const dataFile = join(project, ".toon-memory", "memory", "data.toon");
  let original;

  before(async () => {
    mkdirSync(join(project, ".toon-memory", "memory"), { recursive: true });
    writeFileSync(dataFile, original = [
      "version: 1",
      "entries[2|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence|lastAccessed|priority|path_scope|origin|status|supersededOn|importance|evidence}:",
      "  abc12345|decision|use-zod|Use Zod \\| not Joi\\nfor validation|src/types.ts|types;validation|2026-07-25||7|zod-schemas|0.70|1.0||1||human|active||high|",
      "  def67890|pattern|zod-schemas|Shared schemas live in src/schemas||validation;private|2026-07-20||0||0.60|1.0||0||agent|active|||",
      "", ].join("\n"));
    server = await connectStdio(tempStore(), "toon-import", { mcpArgs: ["--profile", "toon"], cwd: project });
  });
  after(async () => { await server?.close(); });

  it("keeps ids, content with | and newlines, pins and links, and serves the resources", async () => {
    const r = await server.client.callTool({ name: "memory_recall", arguments: { ids: "abc12345" } });
    const text = textOf(r);
    assert.ok(!r.isError, text);
    assert.match(text, /^Fetched 1 entry:\n\n\[decision\] use-zod 📌 \(abc12345\)\n  Use Zod \| not Joi\n  for validation\n/);
    const { resources } = await server.client.listResources();
    assert.deepEqual(resources.map((x) => x.uri), ["toon://memory/entries", "toon://memory/stats", "toon://memory/summaries", "ui://viewer"]);
    const entries = (await server.client.readResource({ uri: "toon://memory/entries" })).contents[0].text;
    assert.match(entries, /^version: 1\nentries\[2\|\]\{id\|category\|key\|/);
    assert.ok(entries.includes("abc12345|decision|use-zod|Use Zod \\| not Joi\\nfor validation|"), entries);
    assert.ok(entries.includes("|zod-schemas|"), entries);
    assert.match((await server.client.readResource({ uri: "toon://memory/stats" })).contents[0].text, /Total entries: 2/);
    const primer = (await server.client.readResource({ uri: "toon://memory/summaries" })).contents[0].text;
    assert.match(primer, /=== System Primer ===/);
    assert.ok(!primer.includes("zod-schemas"), "private-tagged entries stay out of the primer: " + primer);
    assert.match(server.stderr.toString(), /imported 2 toon-memory entries/);
  });

  it("links memory_visualize to the ui://viewer MCP Apps page through _meta.ui.resourceUri", async () => {
    const { tools } = await server.client.listTools();
    const visualize = tools.find((t) => t.name === "memory_visualize");
    assert.equal(visualize._meta?.ui?.resourceUri, "ui://viewer");
    const r = await server.client.callTool({ name: "memory_visualize", arguments: { query: "zod" } });
    assert.ok(!r.isError, textOf(r));
    assert.equal(r._meta?.ui?.resourceUri, "ui://viewer");
    assert.match(textOf(r), /^🧠 Memory Graph Viewer — 2 entries, \d+ edges\n🔍 Focus: "zod"$/);
    const page = (await server.client.readResource({ uri: "ui://viewer" })).contents[0];
    assert.equal(page.mimeType, "text/html;profile=mcp-app");
    assert.ok(page.text.includes("\"key\":\"use-zod\""), "the page carries its graph snapshot");
    assert.ok(!page.text.includes("assets/d3.min.js"), "d3 is inlined, nothing is fetched");
  });

  it("writes changes back into the data.toon it follows: newest first, with toon's evidence field", async () => {
    assert.equal(readFileSync(dataFile, "utf8"), original, "recalls and reads left the file as it was");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "src", "router.ts"), "export {}\n");
    const r = await server.client.callTool({ name: "memory_remember", arguments: { category: "knowledge", key: "router-file",
      content: "The router lives in src/router.ts", file: "src/router.ts", tags: "routing" } });
    assert.ok(!r.isError, textOf(r));
    const lines = readFileSync(dataFile, "utf8").split("\n");
    assert.match(lines[1], /^entries\[3\|\]\{id\|category\|key\|.*\|importance\|evidence\}:$/);
    assert.match(lines[2], /^  m_[a-z2-7]{10}\|knowledge\|router-file\|The router lives in src\/router\.ts\|src\/router\.ts\|routing\|.*\|verified$/);
    assert.ok(lines.some((l) => l.startsWith("  abc12345|decision|use-zod|Use Zod \\| not Joi\\nfor validation|")), lines.join("\n"));
    assert.ok(!existsSync(dataFile + ".lock"), "toon's lock is released");
  });
});

/** Every file under dir, read as bytes (a store's SQLite file and index included). */
function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe("toon profile: capture log, promotion, vault, summaries, backups", () => {
  const project = tempDir("engram-toon-folder-");
  const store = tempStore();
  const memory = join(project, ".toon-memory", "memory");
  const KEY = "a".repeat(64);
  const SECRET = "shhh-plaintext-e2e-4711";
  let server;
  let client;

  async function ok(name, args = {}) {
    const r = await client.callTool({ name, arguments: args });
    assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
    return textOf(r);
  }

  before(async () => {
    server = await connectStdio(store, "toon-folder", { mcpArgs: ["--profile", "toon"], cwd: project, env: { TOON_MEMORY_KEY: KEY } });
    client = server.client;
  });
  after(async () => { await server?.close(); });

  it("engram hook capture logs tool calls (opt-in, secrets redacted) that memory_captured and memory_promote read", async () => {
    const event = (tool, input) => JSON.stringify({ session_id: "s-e2e", cwd: project, hook_event_name: "PostToolUse", tool_name: tool, tool_input: input });
    const off = runCli(store, ["hook", "capture", "claude"], { input: event("Edit", { file_path: "src/a.ts", new_string: "x" }) });
    assert.equal(off.status, 0, off.stderr);
    assert.ok(!existsSync(join(memory, "observations.toon")), "capture is off unless asked for");
    process.env.ENGRAM_CAPTURE = "1";
    try {
      for (const [tool, input] of [
        ["Edit", { file_path: "src/lib/graph.ts", new_string: "Added typed link parsing to graph.ts with superseded_by edges" }],
        ["Bash", { command: "curl -H 'Authorization: Bearer abc.def.ghi' https://example.invalid" }],
        ["Read", { file_path: "", command: "Viewed README to check docs" }]]) {
        const r = runCli(store, ["hook", "capture", "claude"], { input: event(tool, input) });
        assert.equal(r.status, 0, r.stderr);
      }
      assert.equal(runCli(store, ["hook", "capture"], { input: "not json" }).status, 0, "a bad event never fails the agent");
    } finally {
      delete process.env.ENGRAM_CAPTURE;
    }
    const log = readFileSync(join(memory, "observations.toon"), "utf8");
    assert.match(log, /^version: 1\nobservations\[3\|\]\{ts\|session\|agent\|branch\|tool\|hash\|file\|summary\}:\n/);
    assert.ok(!log.includes("abc.def.ghi") && log.includes("Bearer <redacted>"), log);
    const captured = await ok("memory_captured", { tool: "edit" });
    assert.match(captured, /^🔍 Captured activity \(1\):\n\n\[[^\]]+\] claude@[^/]*\/Edit \(src\/lib\/graph\.ts\)/);
    await callErr(client, "memory_captured", { limit: 0 }, [/limit/]);
    const dry = await ok("memory_promote", { dryRun: true });
    assert.match(dry, /^🔍 Dry run — 3 candidate\(s\)/);
    assert.match(dry, /\[active\] Added typed link parsing/);
    assert.match(dry, /\[draft\] Viewed README to check docs/);
    await callErr(client, "memory_promote", { minConfidence: 5 }, [/minConfidence/]);
    assert.match(await ok("memory_stats"), /Total entries: 0/, "a dry run and a refused call write nothing");
    assert.match(await ok("memory_promote", { dryRun: false }), /^📤 Promoted 2 active \+ 1 draft from the capture log\./);
    assert.ok(!(await ok("memory_recall", { query: "viewed readme docs" })).includes("Viewed README"), "drafts stay out of recall");
    assert.match(await ok("memory_recall", { query: "typed link parsing" }), /added-typed-link-parsing/);
    assert.match(await ok("memory_promote", { dryRun: false }), /Nothing new to promote/);
    assert.match(await ok("memory_merge_sessions", { since: "1h" }), /^🔀 Session Merge Report \(1 sessions, last 1h\)/);
    await callErr(client, "memory_merge_sessions", { since: "lately" }, [/since/]);
  });

  it("keeps secrets in the encrypted vault, out of recall, export, the store and the logs", async () => {
    assert.match(await ok("memory_secret", { action: "store", key: "gh_token", value: SECRET, file: "ci.yml", tags: "github" }),
      /^🔐 Stored secret "gh_token"/);
    assert.match(await ok("memory_secret", { action: "get", key: "gh_token" }), new RegExp(`\n\n${SECRET}$`));
    const list = await ok("memory_secret", { action: "list" });
    assert.ok(list.includes("gh_token (ci.yml)") && !list.includes(SECRET), list);
    await callErr(client, "memory_secret", { action: "store", key: "x" }, [/value/]);
    await callErr(client, "memory_secret", { action: "get" }, [/key/]);
    assert.ok(!readFileSync(join(memory, "secrets.toon"), "utf8").includes("gh_token"), "names are encrypted too");
    assert.ok(!(await ok("memory_recall", { query: "gh_token" })).includes(SECRET));
    assert.ok(!(await ok("context_export", { format: "full" })).includes(SECRET));
    const entries = (await client.readResource({ uri: "toon://memory/entries" })).contents[0].text;
    assert.ok(!entries.includes(SECRET));
    for (const f of filesUnder(store)) assert.ok(!readFileSync(f).includes(SECRET), `${f} holds the secret`);
    assert.ok(!server.stderr.toString().includes(SECRET), "the log never shows it");
    assert.match(await ok("memory_secret", { action: "forget", key: "gh_token" }), /Removed secret "gh_token"/);
    assert.match(await ok("memory_secret", { action: "get", key: "gh_token" }), /No secret "gh_token"/);
  });

  it("keeps file summaries and backs the memory up for engram restore", async () => {
    assert.match(await ok("memory_summary", { action: "set", file: "src/big.ts", summary: "Exports the router and three handlers" }),
      /Summary saved for src\/big\.ts/);
    assert.equal(await ok("memory_summary", { action: "get", file: "src/big.ts" }), "Exports the router and three handlers");
    await callErr(client, "memory_summary", { action: "set", file: "a.ts" }, [/summary/]);
    const entries = (await client.readResource({ uri: "toon://memory/entries" })).contents[0].text;
    assert.ok(entries.includes("summaries:\n  src/big.ts: Exports the router and three handlers\n"), entries);
    const backup = await ok("memory_backup");
    assert.match(backup, /^💾 Memory backed up to engram-[0-9T-]+(\.\d+)?Z\.jsonl \(3 memories\)/);
    const file = backup.match(/engram restore (.+)$/m)[1];
    assert.ok(existsSync(file), file);
    assert.match(await ok("memory_forget", { key: "added-typed-link-parsing", action: "hard" }), /added-typed-link-parsing/);
    await server.close();
    server = null;
    const restored = runCli(store, ["restore", file]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stderr, /restored 3 memories from /);
    server = await connectStdio(store, "toon-folder-2", { mcpArgs: ["--profile", "toon"], cwd: project });
    client = server.client;
    assert.match(await ok("memory_recall", { ids: "added-typed-link-parsing" }), /Added typed link parsing/);
    await callErr(client, "memory_secret", { action: "list" }, [/TOON_MEMORY_KEY/]);
  });
});

describe("toon profile: memory_encrypt / memory_decrypt, the store encrypted at rest", () => {
  const project = tempDir("engram-toon-crypt-");
  const store = tempStore();
  const memory = join(project, ".toon-memory", "memory");
  const KEY = "0f".repeat(32);
  const WORDS = ["platypusquorum", "kestrel-cache-key", "ocelottag"];
  let server;

  async function start(name, env) {
    await server?.close();
    server = await connectStdio(store, name, { mcpArgs: ["--profile", "toon"], cwd: project, env });
    return server.client;
  }

  async function ok(client, name, args = {}) {
    const r = await client.callTool({ name, arguments: args });
    assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
    return textOf(r);
  }

  /** Which of WORDS any file under the store directory holds (the SQLite file, its WAL, the index). */
  function wordsOnDisk() {
    const found = new Set();
    for (const f of filesUnder(store)) {
      let bytes;
      try { bytes = readFileSync(f).toString("latin1"); } catch { continue; } // a file replaced meanwhile
      for (const w of WORDS) if (bytes.includes(w)) found.add(w);
    }
    return [...found];
  }

  before(() => {
    mkdirSync(memory, { recursive: true });
    writeFileSync(join(memory, "data.toon"), "version: 1\nentries[0|]{id|category|key|content|file|tags|date|ttl|accessed|links}:\n");
  });
  after(async () => { await server?.close(); });

  it("encrypts: nothing readable on disk, data.toon sealed in toon's form; a restart needs the key", async () => {
    let client = await start("toon-crypt-1", { TOON_MEMORY_KEY: KEY });
    await ok(client, "memory_remember", { category: "knowledge", key: "kestrel-cache-key",
      content: "The platypusquorum service caches sessions for ten minutes", tags: "ocelottag" });
    await server.close(); // its index commit is on disk now: the test can fail
    server = null;
    assert.deepEqual(wordsOnDisk().sort(), [...WORDS].sort(), "plain, every word is on disk");

    client = await start("toon-crypt-2", { TOON_MEMORY_KEY: KEY });
    const enc = await ok(client, "memory_encrypt");
    assert.match(enc, /^🔐 Encryption enabled/);
    assert.match(enc, /Sealed in toon's format: data\.toon/);
    assert.equal(await ok(client, "memory_encrypt"), "Encryption is already enabled");
    // what an interrupted memory_encrypt left in the clear is sealed by the next one
    mkdirSync(join(memory, "backups"), { recursive: true });
    writeFileSync(join(memory, "backups", "engram-leftover.jsonl"), "{\"content\":\"platypusquorum left behind\"}\n");
    assert.match(await ok(client, "memory_encrypt"),
      /^Encryption is already enabled\n  Sealed what an interrupted memory_encrypt had left in the clear: backups\/engram-leftover\.jsonl/);
    assert.match(readFileSync(join(memory, "backups", "engram-leftover.jsonl"), "utf8").trim(), /^[0-9a-f]{32}:[0-9a-f]{32}:[0-9a-f]+$/);
    // a backup of an encrypted store is written sealed, and engram restore needs the key to open it
    const sealedBackup = await ok(client, "memory_backup");
    assert.match(sealedBackup, /sealed with the store's key/);
    const sealedFile = sealedBackup.match(/engram restore (.+)$/m)[1];
    assert.match(readFileSync(sealedFile, "utf8").trim(), /^[0-9a-f]{32}:[0-9a-f]{32}:[0-9a-f]+$/);
    const keyless = runCli(store, ["restore", "--dry-run", sealedFile], { env: { TOON_MEMORY_KEY: "" } });
    assert.notEqual(keyless.status, 0);
    assert.match(keyless.stderr, /is sealed .*TOON_MEMORY_KEY/);
    assert.match(await ok(client, "memory_recall", { query: "platypusquorum" }), /kestrel-cache-key/, "recall right after");
    await server.close();
    server = null;
    assert.deepEqual(wordsOnDisk(), [], "no memory's word, key or tag in any file under the store directory");
    assert.ok(!existsSync(join(store, "index")), "no on-disk index while encrypted");
    assert.match(readFileSync(join(memory, "data.toon"), "utf8").trim(), /^[0-9a-f]{32}:[0-9a-f]{32}:[0-9a-f]+$/);
    assert.equal(JSON.parse(readFileSync(join(memory, "config.json"), "utf8")).encrypted, true, "toon's own flag");

    client = await start("toon-crypt-3", { TOON_MEMORY_KEY: KEY });
    assert.match(await ok(client, "memory_recall", { query: "platypusquorum" }), /kestrel-cache-key/, "lexical recall after a restart with the key");
    assert.match(await ok(client, "memory_recall", { ids: "kestrel-cache-key" }), /platypusquorum/);
  });

  it("without the key, or with another, the server starts and every memory tool answers a clear error; nothing is written", async () => {
    await server?.close(); // the last server's reads are counted at its close
    server = null;
    // The SDK stops a server that has not exited 2 s after stdin closed with a signal, which ends it at once: its last
    // commits then wait in SQLite's write-ahead log, and the next process to open the store moves them into
    // engram.db (new bytes, the same content). A command with the key opens and closes the store cleanly first.
    const settle = runCli(store, ["stats"], { env: { TOON_MEMORY_KEY: KEY } });
    assert.equal(settle.status, 0, settle.stderr);
    assert.ok(!existsSync(join(store, "engram.db-wal")), "a clean close leaves no write-ahead log");
    const before = readFileSync(join(store, "engram.db"));
    let client = await start("toon-crypt-nokey", {});
    await callErr(client, "memory_recall", { query: "platypusquorum" }, [/encrypted at rest/, /TOON_MEMORY_KEY/, /no key is set/]);
    await callErr(client, "memory_remember", { category: "knowledge", key: "leak", content: "platypusquorum leak" },
      [/encrypted at rest/, /TOON_MEMORY_KEY/]);
    client = await start("toon-crypt-wrongkey", { TOON_MEMORY_KEY: "a1".repeat(32) });
    await callErr(client, "memory_recall", { query: "platypusquorum" }, [/not this store's key/]);
    await server.close();
    server = null;
    assert.ok(before.equals(readFileSync(join(store, "engram.db"))), "nothing written to the store");
    assert.deepEqual(wordsOnDisk(), []);
  });

  it("decrypts with toon's key argument: everything back in the clear", async () => {
    const client = await start("toon-crypt-4", {});
    // a server without the key cannot open the store to decrypt it: the key argument is for a server that has it
    await callErr(client, "memory_decrypt", { key: KEY }, [/TOON_MEMORY_KEY/]);
    const keyed = await start("toon-crypt-5", { TOON_MEMORY_KEY: KEY });
    await callErr(keyed, "memory_decrypt", { key: "a1".repeat(32) }, [/Wrong key/]);
    const dec = await ok(keyed, "memory_decrypt", { key: KEY });
    assert.match(dec, /^🔓 Encryption disabled/);
    assert.match(dec, /Decrypted: data\.toon/);
    assert.match(readFileSync(join(memory, "data.toon"), "utf8"), /kestrel-cache-key\|The platypusquorum service/);
    assert.equal(JSON.parse(readFileSync(join(memory, "config.json"), "utf8")).encrypted, false);
    const plain = await start("toon-crypt-6", {});
    assert.match(await ok(plain, "memory_recall", { query: "platypusquorum" }), /kestrel-cache-key/, "plain again: no key needed");
    await server.close();
    server = null;
    assert.deepEqual(wordsOnDisk().sort(), [...WORDS].sort());
  });
});

describe("toon profile: a data.toon toon encrypted is imported with its key", () => {
  const KEY = "3c".repeat(32);
  const DATA = "version: 1\nentries[1|]{id|category|key|content|file|tags|date|ttl|accessed|links}:\n"
    + "  a1b2c3d4|decision|wombat-ledger|The wombat ledger closes at noon||finance|2026-07-10||0|\n";

  /** toon-memory's own sealed form: hex IV (16 bytes) ':' hex GCM tag ':' hex ciphertext. */
  async function sealToon(text, keyHex) {
    const { createCipheriv, randomBytes } = await import("node:crypto");
    const iv = randomBytes(16);
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(keyHex, "hex"), iv);
    const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
    return `${iv.toString("hex")}:${cipher.getAuthTag().toString("hex")}:${body.toString("hex")}`;
  }

  async function projectWithSealedData() {
    const project = tempDir("engram-toon-sealed-");
    const memory = join(project, ".toon-memory", "memory");
    mkdirSync(memory, { recursive: true });
    writeFileSync(join(memory, "data.toon"), await sealToon(DATA, KEY));
    return project;
  }

  async function recallIn(project, env) {
    const server = await connectStdio(tempStore(), "toon-sealed", { mcpArgs: ["--profile", "toon"], cwd: project, env });
    try {
      const r = await server.client.callTool({ name: "memory_recall", arguments: { query: "wombat ledger" } });
      assert.ok(!r.isError, textOf(r));
      return textOf(r);
    } finally {
      await server.close();
    }
  }

  it("with TOON_MEMORY_KEY the entries come in; without it nothing does, and the file is left as it was", async () => {
    const withKey = await projectWithSealedData();
    assert.match(await recallIn(withKey, { TOON_MEMORY_KEY: KEY }), /wombat-ledger/);
    const withoutKey = await projectWithSealedData();
    const sealed = readFileSync(join(withoutKey, ".toon-memory", "memory", "data.toon"), "utf8");
    assert.doesNotMatch(await recallIn(withoutKey, { TOON_MEMORY_KEY: "", ENGRAM_KEY: "" }), /wombat-ledger/);
    assert.equal(readFileSync(join(withoutKey, ".toon-memory", "memory", "data.toon"), "utf8"), sealed, "untouched");
  });
});
