// SIGKILL the JVM in the middle of a stream of writes, restart it on the same store: every write
// that was acknowledged before the kill must survive, and `engram doctor` must pass.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { assertIsJvm, clientInfo, connectStdio, jvmArgs, pollUntil, rawSession, runCli, tempStore, uniqueWord } from "./lib/engram.mjs";
import { recallResults, textOf } from "./lib/tools.mjs";

const KILL_AFTER = Number(process.env.ENGRAM_E2E_KILL_AFTER ?? 40);
const IN_FLIGHT = 4;

describe("crash safety", { timeout: 170_000 }, () => {
  const store = tempStore();
  const acked = [];
  let first;
  let second;
  after(async () => {
    await first?.close();
    await second?.close();
  });

  it(`SIGKILL after ${KILL_AFTER} acknowledged writes, with ${IN_FLIGHT} more in flight`, async () => {
    const server = first = await connectStdio(store, "crash-1");
    assertIsJvm(server.pid);
    let seq = 0;
    let killed = false;
    let failed = false;
    const writer = async () => {
      while (!killed && !failed) {
        const i = seq++;
        const word = uniqueWord("zqk");
        const key = `crash-${i}`;
        try {
          const r = await server.client.callTool({ name: "remember", arguments: {
            key, content: `${word} ${uniqueWord("zqm")} survives the crash as write ${i}.` } });
          if (killed) return; // an answer racing the kill is not counted either way
          if (r.isError) failed = true; // stops the other writers too
          assert.ok(!r.isError, `write ${i} refused: ${textOf(r)}`);
          acked.push({ key, word });
          if (acked.length >= KILL_AFTER && !killed) {
            killed = true;
            process.kill(server.pid, "SIGKILL");
          }
        } catch (e) {
          failed = true;
          if (!killed) throw e;
          return; // the request the kill interrupted
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
    const gone = await pollUntil(() => { try { process.kill(server.pid, 0); return false; } catch { return true; } }, { timeoutMs: 5000 });
    assert.ok(gone, "the JVM is still alive after SIGKILL");
    assert.ok(acked.length >= KILL_AFTER);
    console.log(`# killed pid ${server.pid} after ${acked.length} acks (${seq} writes started)`);
    first = null;
  });

  it("after a restart every acknowledged write is recalled", async () => {
    assert.ok(acked.length >= KILL_AFTER, "the crash step did not complete");
    const server = second = await connectStdio(store, "crash-2");
    const missing = [];
    for (const w of acked) {
      const results = await recallResults(server.client, { query: w.word, limit: 5 });
      if (results.filter((r) => r.key === w.key).length !== 1) missing.push(w.key);
    }
    assert.deepEqual(missing, [], `${missing.length} of ${acked.length} acknowledged writes were lost`);
    const more = await server.client.callTool({ name: "remember", arguments: { key: "after-crash", content: `Writes work again after the ${uniqueWord()} restart.` } });
    assert.ok(!more.isError, textOf(more));
    await server.close();
    second = null;
  });

  it("engram doctor passes after the crash", () => {
    const r = runCli(store, ["doctor"]);
    assert.equal(r.status, 0, `doctor exit ${r.status}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  });
});

// toon-memory's own suite (and any script) may signal the server and delete its folder in the same breath: after
// SIGTERM the server must write nothing more (no final index commit, no merge, no checkpoint), and still lose nothing.
describe("SIGTERM stops the stdio server at once, writing nothing more", { timeout: 120_000 }, () => {
  const store = tempStore();
  const keys = [];
  let server;
  after(async () => { await server?.close(); });

  /** Every file under dir with its size and modification time, by path. */
  function listing(dir) {
    const out = new Map();
    for (const name of readdirSync(dir, { recursive: true })) {
      const p = join(dir, name);
      try {
        const s = statSync(p);
        if (s.isFile()) out.set(name, `${s.size}@${s.mtimeMs}`);
      } catch { /* removed while listed */ }
    }
    return out;
  }

  it("exits 0 without creating or changing a file, and a restart recalls every acknowledged write", async () => {
    // a raw session rather than the SDK's transport, which does not report the exit code;
    // no model: its load and vector backfill would be background writes of their own
    const first = rawSession(jvmArgs(store, "mcp"), { env: { ENGRAM_EMBEDDER: "none" } });
    let nextId = 1;
    const request = async (method, params) => {
      const id = nextId++;
      first.send(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, method, params })));
      return (await first.until(id, 60_000)).at(-1);
    };
    const init = await request("initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: clientInfo("sigterm") });
    assert.ok(init.result, `initialize failed: ${JSON.stringify(init)}; stderr:\n${first.stderr}`);
    first.send(Buffer.from(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })));
    for (let i = 0; i < 30; i++) {
      const key = `term-${i}`;
      const r = await request("tools/call", { name: "remember", arguments: {
        key, content: `${uniqueWord("zqt")} is acknowledged as write ${i} before the signal.` } });
      assert.ok(r.result && !r.result.isError, JSON.stringify(r));
      keys.push(key);
    }
    // wait until the server is idle on disk (group commit, segment merge, writer released), so that whatever
    // changes after the signal is the signal's doing
    let before = listing(store);
    let stableSince = Date.now();
    const deadline = Date.now() + 30_000;
    while (Date.now() - stableSince < 3000 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      const now = listing(store);
      if ([...now].some(([k, v]) => before.get(k) !== v) || now.size !== before.size) { before = now; stableSince = Date.now(); }
    }
    assert.ok(Date.now() - stableSince >= 3000, "the store never went quiet for 3 s after the writes");

    first.kill("SIGTERM");
    const { code, signal } = await first.exit;
    assert.equal(code, 0, `exit code ${code} (signal ${signal}); stderr:\n${first.stderr}`);
    const afterSignal = listing(store);
    const changed = [...afterSignal].filter(([k, v]) => before.get(k) !== v).map(([k]) => k);
    assert.deepEqual(changed, [], "files created or changed after SIGTERM");

    server = await connectStdio(store, "sigterm-2", { env: { ENGRAM_EMBEDDER: "none" } });
    const missing = [];
    for (const key of keys) {
      const r = await server.client.callTool({ name: "recall", arguments: { ids: [key], mode: "ids" } });
      if (r.isError || !textOf(r).includes(key)) missing.push(key);
    }
    assert.deepEqual(missing, [], `${missing.length} of ${keys.length} acknowledged writes were lost`);
  });
});
