// Shared by the viewer's browser tests: where chromium is, seeded stores made with `engram import`,
// `engram viewer` started on a free port, and a browser page that waits for the viewer's first load.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { JAVA, jvmArgs, tempDir, tempStore, track, Tail, runCli, freePort, sleep } from "./engram.mjs";

export const CHROMIUM = process.env.ENGRAM_CHROMIUM ?? "/usr/bin/chromium";
export const SHOTS = resolve(dirname(fileURLToPath(import.meta.url)), "../../engram-cli/target/viewer-e2e");
export const skip = existsSync(CHROMIUM) ? false
  : `chromium not found at ${CHROMIUM}: install Debian's 'chromium' package (.ci/run does) or set ENGRAM_CHROMIUM`;

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
function id(n) {
  let s = "";
  for (let i = 0; i < 10; i++) { s = BASE32[n & 31] + s; n = Math.floor(n / 32); }
  return "m_" + s;
}

/** JSON lines `engram import` reads: `count` memories, memory i linked to i+1 and to a hub every 50. */
function seedFile(count, words) {
  const now = new Date().toISOString();
  const lines = [];
  for (let i = 0; i < count; i++) {
    const edges = [];
    if (i + 1 < count) edges.push({ to_id: id(i + 1), type: "related", created_at: now });
    if (i % 50 !== 0) edges.push({ to_id: id(i - (i % 50)), type: "references", created_at: now });
    lines.push(JSON.stringify({
      id: id(i), key: `note-${i}`, zone: "default", type: "fact", content: words(i), tags: [`group-${i % 50}`],
      quality: 0.5, confidence: 0.8, status: "active", created_at: now, updated_at: now, access_count: 0,
      review_interval_days: 7, origin: "agent", pin_priority: 0, edges, versions: [],
    }));
  }
  const file = join(tempDir(), "seed.jsonl");
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

export function seedStore(count, words) {
  const store = tempStore();
  const r = runCli(store, ["import", seedFile(count, words)], { timeoutMs: 170_000 });
  assert.equal(r.status, 0, `import failed: ${r.stderr}`);
  return store;
}

/** Starts `engram viewer --port P` and waits for the URL it prints on stderr. */
export async function startViewer(store, env = {}) {
  const port = await freePort();
  const proc = track(spawn(JAVA, jvmArgs(store, "viewer", "--port", String(port)),
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }));
  const out = new Tail();
  proc.stdout.on("data", (d) => out.push(d));
  proc.stderr.on("data", (d) => out.push(d));
  const deadline = Date.now() + 60_000;
  while (!/viewer \(zone [^)]+\) at (http:\S+)/.test(out.text)) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`'engram viewer' did not start; output:\n${out}`);
    await sleep(100);
  }
  const url = /at (http:\S+)/.exec(out.text.slice(out.text.indexOf("viewer (zone")))[1];
  return {
    url, out,
    async stop() {
      if (proc.exitCode !== null) return;
      const gone = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await gone;
    },
  };
}


/** Opens `url` in a new page of `browser` and waits until the viewer has loaded its first slice. */
export async function openViewer(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.engramViewer && window.engramViewer.state.ready, null, { timeout: 60_000 });
  return { page, errors };
}

export const TOPICS = ["redis cache eviction", "postgres connection pool", "kafka consumer lag", "jwt token expiry",
  "argo deploy rollback"];
