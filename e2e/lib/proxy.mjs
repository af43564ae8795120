// Plumbing for the proxy end-to-end test: fixtures on disk, `engram proxy add`, starting `engram proxy`
// with the SDK client, and reading a compressed result back through the follow-up tools.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { JAVA, Tail, clientInfo, jvmArgs, runCli, track } from "./engram.mjs";
import { textOf } from "./tools.mjs";

const E2E_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const FILESYSTEM = join(E2E_DIR, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
export const EVERYTHING = join(E2E_DIR, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FOOTER_TOKEN = "\n---\n[progressive: chars=";
export const KEY = /key=([0-9a-f]{12})/;

/** Writes the fixtures: small text, long markdown, large JSON array, nested JSON, ANSI log, plain notes. */
export function writeFixtures(dir) {
  const files = {};
  files["small.txt"] = "hello from the proxy test\nsecond line\n";
  let md = "# Operations guide\n\nThis guide explains how the service runs.\n\n";
  const topics = ["Install", "Configuration", "Networking", "Storage", "Backups", "Monitoring", "Alerts",
    "Scaling", "Security", "Upgrades", "Troubleshooting", "Glossary"];
  for (const [i, t] of topics.entries()) {
    md += `## ${t}\n\n`;
    for (let p = 0; p < 6; p++) {
      md += `${t} paragraph ${p}: the ${t.toLowerCase()} step ${i}.${p} keeps replicas healthy, checks quotas and `
        + `writes an audit line per change so that operators can follow every decision later on.\n\n`;
    }
    md += "```sh\nservice " + t.toLowerCase() + " --check   # two  spaces stay inside code\n```\n\n";
  }
  files["guide.md"] = md;
  files["items.json"] = JSON.stringify(Array.from({ length: 300 }, (_, i) => ({
    id: i, name: `item-${i}`, tags: ["alpha", "beta"], description: `Item number ${i} in the large array fixture`,
  })), null, 2);
  const nested = {};
  for (const k of ["server", "database", "cache", "queue", "auth", "logging"]) {
    nested[k] = {};
    for (let j = 0; j < 40; j++) nested[k][`${k}_option_${j}`] = { value: j, note: `setting ${j} of ${k} explained at length` };
  }
  files["nested.json"] = JSON.stringify(nested, null, 2);
  let log = "";
  for (let i = 0; i < 400; i++) {
    log += "\u001b[32mINFO\u001b[0m  worker heartbeat ok\n";
    if (i % 50 === 0) log += `\u001b[31mERROR\u001b[0m request ${i} failed: \u001b[1mtimeout\u001b[0m\n`;
  }
  files["build.log"] = log;
  let notes = "";
  for (let i = 0; i < 120; i++) {
    notes += `Note ${i}: plain prose without any headings, written to exceed the budget so that it is `
      + `delivered in chunks which can be read back exactly, one after another.\n\n`;
  }
  files["notes.txt"] = notes;
  let runbook = "";
  for (let i = 0; i < 60; i++) runbook += `Step ${i}: check the service, then record what changed in the log.\n`;
  // ~4,000 chars: over the 3,000-char surfacing minimum, under the 5,000 chars above which results are compressed
  files["runbook.txt"] = runbook;
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return files;
}

/** `engram proxy add …`, asserting success. */
export function addUpstream(store, args) {
  const r = runCli(store, ["proxy", "add", ...args]);
  assert.equal(r.status, 0, `proxy add ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
}

/** Starts `engram proxy` with the SDK client; extra environment variables are added to this process's. */
export async function connectProxy(store, env = {}) {
  const transport = new StdioClientTransport({
    command: JAVA, args: jvmArgs(store, "proxy"), env: { ...process.env, ...env }, stderr: "pipe",
  });
  const stderr = new Tail(20_000);
  transport.stderr.on("data", (d) => stderr.push(d));
  const client = new Client(clientInfo("proxy"));
  try {
    await client.connect(transport);
  } catch (e) {
    await transport.close().catch(() => {});
    throw new Error(`could not start 'engram proxy' (${e.message}); stderr:\n${stderr}`);
  }
  const pid = transport.pid;
  track({ kill: (s) => { try { process.kill(pid, s); } catch { /* gone */ } }, once: () => {} });
  return { client, pid, stderr, async close() { await client.close().catch(() => {}); } };
}

/** Child processes of `pid` whose command line contains `needle`. */
export function childPids(pid, needle) {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" });
  return out.split("\n").map((l) => l.trim()).filter((l) => l.includes(needle)).map((l) => Number(l.split(/\s+/)[0]));
}

/** Reads a stored original back with stm_proxy_read_more, splitting each chunk on the footer token. */
export async function readAll(client, key, limit = 4000) {
  let offset = 0;
  let text = "";
  for (let i = 0; i < 1000; i++) {
    const r = await client.callTool({ name: "stm_proxy_read_more", arguments: { key, offset, limit } });
    assert.ok(!r.isError, `read_more failed: ${textOf(r)}`);
    const t = textOf(r);
    const at = t.indexOf(FOOTER_TOKEN);
    assert.ok(at >= 0, `read_more answer has no footer token: ${t.slice(-300)}`);
    text += t.slice(0, at);
    if (/has_more=false/.test(t.slice(at))) return text;
    offset = r.structuredContent.next_offset;
  }
  throw new Error("read_more did not finish in 1000 calls");
}
