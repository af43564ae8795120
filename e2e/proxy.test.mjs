// `engram proxy` in front of real upstreams from npm (server-filesystem over a temp folder of fixtures,
// server-everything), driven by the TypeScript SDK client: names, pass-through, every compression
// strategy, exact recovery through the follow-up tools, the cache, the clean environment, and an
// upstream killed mid-call.
import assert from "node:assert/strict";
import { rmSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli, sleep, tempDir, tempStore } from "./lib/engram.mjs";
import { EVERYTHING, FILESYSTEM, FOOTER_TOKEN, KEY, addUpstream, childPids, connectProxy, readAll, writeFixtures }
  from "./lib/proxy.mjs";
import { textOf } from "./lib/tools.mjs";

// the default max_result_chars; a result over 5,000 chars gets at most 45% of its size (ResultBudget)
const BUDGET = 8000;
const budgetFor = (original) => original.length <= 5000 ? BUDGET : Math.min(BUDGET, Math.floor(original.length * 0.45));

describe("engram proxy", { timeout: 170_000 }, () => {
  const data = tempDir("engram-proxy-data-");
  const store = tempStore();
  let files;
  let proxy;
  let client;
  const read = (name, server = "fs") => client.callTool({ name: `${server}__read_text_file`, arguments: { path: join(data, name) } });

  before(async () => {
    files = writeFixtures(data);
    const remembered = runCli(store, ["remember", "The runbook for zqxv certificate rotation: rotate quarterly, never on Fridays."]);
    assert.equal(remembered.status, 0, remembered.stderr);
    addUpstream(store, ["filesystem", "--command", "node", "--args", `${FILESYSTEM} ${data}`, "--prefix", "fs"]);
    addUpstream(store, ["fs-selective", "--command", "node", "--args", `${FILESYSTEM} ${data}`, "--prefix", "fss",
      "--compression", "selective"]);
    addUpstream(store, ["fs-truncate", "--command", "node", "--args", `${FILESYSTEM} ${data}`, "--prefix", "fst",
      "--compression", "truncate", "--cache-ttl", "0"]);
    addUpstream(store, ["everything", "--command", "node", "--args", `${EVERYTHING} stdio`, "--prefix", "ev",
      "--env", "ENGRAM_E2E_PASSED"]);
    proxy = await connectProxy(store, { ENGRAM_E2E_SECRET: "must-not-leak", ENGRAM_E2E_PASSED: "passed-through",
      ENGRAM_PROXY_ADVERTISE_ADMIN: "true", ENGRAM_PROXY_FORMATION__ENABLED: "true",
      ENGRAM_PROXY_MAX_DESCRIPTION_CHARS: "200" });
    client = proxy.client;
  });
  after(async () => {
    await proxy?.close();
  });

  it("lists upstream tools as prefix__tool with [server] titles, next to the stm_* tools", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ["fs__read_text_file", "fs__write_file", "fss__read_text_file", "ev__echo", "ev__get-env",
      "stm_proxy_select_chunks", "stm_proxy_read_more", "stm_proxy_describe_tool", "stm_surfacing_feedback",
      "stm_compression_feedback", "stm_admin"]) {
      assert.ok(names.includes(n), `${n} missing from ${names.join(", ")}`);
    }
    for (const n of names) assert.match(n, /^[A-Za-z0-9_.-]{1,128}$/);
    const read = tools.find((t) => t.name === "fs__read_text_file");
    assert.match(read.title, /^\[filesystem\] /);
  });

  it("passes a small result through untouched", async () => {
    const r = await read("small.txt");
    assert.ok(!r.isError, textOf(r));
    assert.equal(textOf(r), files["small.txt"]);
  });

  it("hybrid: long markdown becomes head + table of contents, read back exactly with read_more", async () => {
    const r = await read("guide.md");
    const t = textOf(r);
    assert.ok(t.length <= budgetFor(files["guide.md"]), `answer is ${t.length} chars, budget ${budgetFor(files["guide.md"])}`);
    assert.match(t, /\[hybrid: chars 0-\d+ of \d+/);
    assert.ok(t.includes("Troubleshooting"), "the table of contents names later sections");
    const key = t.match(KEY)[1];
    assert.equal(await readAll(client, key), files["guide.md"]);
  });

  it("selective: a table of contents whose sections, all selected, are the original exactly", async () => {
    const r = await read("guide.md", "fss");
    const t = textOf(r);
    const toc = JSON.parse(t); // memtomem-stm's shape: {"type": "toc", "selection_key", "entries": [{"key", ...}]}
    assert.equal(toc.type, "toc");
    assert.equal(toc.format, "markdown");
    assert.equal(toc.total_chars, files["guide.md"].length);
    const key = toc.selection_key;
    assert.match(key, /^[0-9a-f]{12}$/);
    const ids = toc.entries.map((e) => e.key);
    assert.ok(ids.length >= 12, `expected a section per heading, got ${ids.length}`);
    assert.ok(toc.entries.some((e) => e.title.includes("Troubleshooting")), "entries name the headings");
    assert.equal(toc.entries.reduce((n, e) => n + e.size, 0), files["guide.md"].length, "sizes add up to the original");
    const all = await client.callTool({ name: "stm_proxy_select_chunks", arguments: { key, sections: ids } });
    assert.ok(!all.isError, textOf(all));
    assert.equal(textOf(all), files["guide.md"]);
    const one = await client.callTool({ name: "stm_proxy_select_chunks", arguments: { key, sections: [ids[3]] } });
    assert.match(textOf(one), /^## /);
  });

  it("schema pruning: a large JSON array shows its shape, and the original stays recoverable", async () => {
    const t = textOf(await read("items.json"));
    assert.ok(t.length <= budgetFor(files["items.json"]));
    assert.match(t, /schema_pruning/);
    assert.match(t, /297 more items \(300 in all\)/);
    assert.equal(await readAll(client, t.match(KEY)[1]), files["items.json"]);
    // the sections by item range: the last one, selected, is the end of the array
    const last = [...t.matchAll(/^- (s\d+) "\[\d+\.\.(\d+)\]"/gm)].at(-1);
    assert.ok(last, "sections listed by item range");
    assert.equal(last[2], "299");
    const end = await client.callTool({ name: "stm_proxy_select_chunks", arguments: { key: t.match(KEY)[1], sections: [last[1]] } });
    assert.ok(files["items.json"].endsWith(textOf(end)) && textOf(end).includes('"item-299"'), textOf(end));
  });

  it("field extraction: nested JSON keeps every top-level key", async () => {
    const t = textOf(await read("nested.json"));
    assert.ok(t.length <= budgetFor(files["nested.json"]));
    assert.match(t, /extract_fields/);
    for (const k of ["server", "database", "cache", "queue", "auth", "logging"]) assert.ok(t.includes(`"${k}"`), k);
    assert.equal(await readAll(client, t.match(KEY)[1]), files["nested.json"]);
  });

  it("progressive: plain text in chunks ending with the footer token, continued exactly by read_more", async () => {
    const t = textOf(await read("notes.txt"));
    assert.ok(t.includes(FOOTER_TOKEN), "first chunk carries the progressive footer");
    assert.ok(t.length <= budgetFor(files["notes.txt"]));
    const first = t.slice(0, t.indexOf(FOOTER_TOKEN));
    assert.ok(files["notes.txt"].startsWith(first));
    assert.equal(await readAll(client, t.match(KEY)[1], 3000), files["notes.txt"]);
    // more is left than one read_more returns: the footer lists the sections after the chunk
    const ids = [...t.matchAll(/^- (s\d+) "/gm)].map((m) => m[1]);
    assert.ok(ids.length >= 2, "sections after the chunk are listed");
    const end = await client.callTool({ name: "stm_proxy_select_chunks", arguments: { key: t.match(KEY)[1], sections: [ids.at(-1)] } });
    assert.ok(files["notes.txt"].endsWith(textOf(end)), "the last listed section is the end of the text");
  });

  it("truncate: keeps the beginning within budget and names the full original", async () => {
    const t = textOf(await read("notes.txt", "fst"));
    assert.ok(t.length <= budgetFor(files["notes.txt"]));
    assert.match(t, /truncated: kept \d+ of \d+ chars/);
    assert.equal(await readAll(client, t.match(KEY)[1]), files["notes.txt"]);
  });

  it("clean: an ANSI log loses its escapes and repeats, the original keeps them", async () => {
    const t = textOf(await read("build.log"));
    assert.ok(!t.includes("\u001b"), "escape codes are stripped");
    assert.match(t, /worker heartbeat ok \[x\d+\]/);
    assert.ok(t.length < files["build.log"].length / 4, `cleaned to ${t.length} of ${files["build.log"].length}`);
    assert.equal(await readAll(client, t.match(KEY)[1]), files["build.log"]);
  });

  it("caches read-only tools and never answers a write tool from the cache", async () => {
    const cachedPath = join(data, "cached.txt");
    writeFileSync(cachedPath, "version one\n");
    assert.equal(textOf(await read("cached.txt")), "version one\n");
    writeFileSync(cachedPath, "version two\n");
    assert.equal(textOf(await read("cached.txt")), "version one\n", "second read is served from the cache");

    const target = join(data, "written.txt");
    const write = { name: "fs__write_file", arguments: { path: target, content: "written by the agent\n" } };
    assert.ok(!(await client.callTool(write)).isError);
    rmSync(target);
    assert.ok(!(await client.callTool(write)).isError);
    assert.ok(existsSync(target), "the second identical write reached the upstream");
    assert.equal(readFileSync(target, "utf8"), "written by the agent\n");
  });

  it("starts upstreams with a clean environment: only PATH, HOME and named variables", async () => {
    const t = textOf(await client.callTool({ name: "ev__get-env", arguments: {} }));
    assert.ok(t.includes("passed-through"), "a variable named with --env passes");
    assert.ok(!t.includes("must-not-leak"), "other variables do not");
    assert.ok(!/"(USER|LOGNAME|SHELL)"/.test(t), `SDK default variables do not pass either: ${t.slice(0, 400)}`);
  });

  it("pages a tool's schema with stm_proxy_describe_tool", async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "fs__read_text_file").inputSchema;
    let offset = 0;
    let generation;
    let text = "";
    for (;;) {
      const r = await client.callTool({ name: "stm_proxy_describe_tool",
        arguments: { name: "fs__read_text_file", part: "input_schema", offset, limit: 60, ...(generation ? { generation } : {}) } });
      assert.ok(!r.isError, textOf(r));
      assert.ok(Buffer.byteLength(JSON.stringify(r)) <= 16_384 + 200);
      text += r.structuredContent.text;
      generation = r.structuredContent.generation;
      if (r.structuredContent.next_offset === null) break;
      offset = r.structuredContent.next_offset;
    }
    assert.deepEqual(JSON.parse(text), schema);

    // the listed description is cut to 200 chars; describe_tool gives the whole of it
    const listed = tools.find((t) => t.name === "fs__read_text_file").description;
    assert.ok(listed.length <= 200 && listed.endsWith('stm_proxy_describe_tool(name="fs__read_text_file")]'), listed);
    const full = await client.callTool({ name: "stm_proxy_describe_tool", arguments: { name: "fs__read_text_file" } });
    const head = listed.slice(0, listed.indexOf(" … [full description"));
    assert.ok(full.structuredContent.text.startsWith(head) && full.structuredContent.text.length > 200, full.structuredContent.text);
  });

  it("surfaces a relevant memory under a mid-size result that passes through, with an id the agent can rate", async () => {
    const t = textOf(await read("runbook.txt"));
    const why = textOf(await client.callTool({ name: "stm_admin", arguments: { action: "surfacing_stats" } }));
    assert.ok(t.length > files["runbook.txt"].length, `no memories surfaced; ${why}`);
    assert.ok(t.startsWith(files["runbook.txt"]), "the result itself is unchanged");
    const block = t.slice(files["runbook.txt"].length);
    assert.match(block, /<surfaced-memories>[\s\S]*untrusted data[\s\S]*zqxv certificate rotation[\s\S]*<\/surfaced-memories>$/);
    const id = block.match(/_surfacing_id: ([0-9a-f]{12})_/)[1];
    const fb = await client.callTool({ name: "stm_surfacing_feedback", arguments: { surfacing_id: id, rating: "helpful" } });
    assert.ok(!fb.isError, textOf(fb));
    const again = textOf(await read("runbook.txt"));
    assert.ok(!again.includes("zqxv"), "a memory is not surfaced twice (cache hit, dedup window)");
    const stats = await client.callTool({ name: "stm_admin", arguments: { action: "surfacing_stats" } });
    assert.match(textOf(stats), /Surfacing: 1 events over 1 tools, 1 ratings \(100% helpful\)/);
  });

  it("queues proposed memories for review; a person accepts one into the store", async () => {
    const args = { content: "Deploys freeze on Fridays after 14:00.", idempotency_key: "freeze-1" };
    const first = await client.callTool({ name: "stm_memory_propose", arguments: args });
    const again = await client.callTool({ name: "stm_memory_propose", arguments: args });
    assert.equal(first.structuredContent.status, "pending_review");
    assert.equal(again.structuredContent.proposal_id, first.structuredContent.proposal_id, "idempotent");
    const id = first.structuredContent.proposal_id;
    const listed = runCli(store, ["--json", "proxy", "proposals"]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout).pending.map((p) => p.id), [id]);
    const accepted = runCli(store, ["proxy", "proposals", "--accept", id]);
    assert.equal(accepted.status, 0, accepted.stderr);
    const recalled = runCli(store, ["--json", "recall", "deploys freeze fridays"]);
    assert.ok(JSON.parse(recalled.stdout).results.some((r) => r.content.includes("Deploys freeze on Fridays")), recalled.stdout);
  });

  it("reports discovered vs exposed tools per server through stm_admin", async () => {
    const r = await client.callTool({ name: "stm_admin", arguments: { action: "proxy_health" } });
    assert.ok(!r.isError, textOf(r));
    assert.match(textOf(r), /filesystem: connected, 14 discovered, 14 exposed/);
    const stats = await client.callTool({ name: "stm_admin", arguments: { action: "proxy_stats" } });
    assert.match(textOf(stats), /cache hits/);
  });

  it("relays the upstream's progress notifications to the agent", async () => {
    const progress = [];
    const r = await client.callTool({ name: "ev__trigger-long-running-operation", arguments: { duration: 1, steps: 4 } },
      undefined, { onprogress: (p) => progress.push(p.progress), timeout: 30_000 });
    assert.ok(!r.isError, textOf(r));
    // best effort: the last notification can race the result, after which relaying would break the spec
    assert.ok(progress.length >= 2, `expected progress notifications, got ${JSON.stringify(progress)}`);
    assert.ok(progress.every((p, i) => p >= 1 && p <= 4 && (i === 0 || p > progress[i - 1])), JSON.stringify(progress));
  });

  it("an upstream killed mid-call gives a clear error, then the next call reconnects", async () => {
    const call = client.callTool({ name: "ev__trigger-long-running-operation", arguments: { duration: 20, steps: 20 } },
      undefined, { timeout: 60_000 });
    await sleep(1500);
    const pids = childPids(proxy.pid, "server-everything");
    assert.equal(pids.length, 1, `expected one server-everything child, found ${pids}`);
    process.kill(pids[0], "SIGKILL");
    const r = await call;
    assert.equal(r.isError, true);
    assert.match(textOf(r), /upstream 'everything' exited during the call.*restarts it on the next call/s);
    const echo = await client.callTool({ name: "ev__echo", arguments: { message: "back again" } });
    assert.ok(!echo.isError, textOf(echo));
    assert.match(textOf(echo), /back again/);
    assert.notDeepEqual(childPids(proxy.pid, "server-everything"), pids, "a new process serves the call");
  });

  it("closing its input ends the proxy and stops every upstream it started", async () => {
    const children = ["server-filesystem", "server-everything"].flatMap((n) => childPids(proxy.pid, n));
    assert.ok(children.length >= 2, `upstream processes before: ${children}`);
    await proxy.close();
    const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
    for (let i = 0; i < 100 && [proxy.pid, ...children].some(alive); i++) await sleep(100);
    assert.deepEqual([proxy.pid, ...children].filter(alive), [], "proxy and upstreams gone");
  });
});
