// SIGKILL the JVM in the middle of a stream of writes, restart it on the same store: every write
// that was acknowledged before the kill must survive, and `engram doctor` must pass.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { assertIsJvm, connectStdio, pollUntil, runCli, tempStore, uniqueWord } from "./lib/engram.mjs";
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
