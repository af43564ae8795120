// Three `engram mcp` processes on one store write and recall at the same time. Every acknowledged
// write must be found exactly once afterwards, writes must become visible to the other processes
// quickly, and `engram doctor` must find the index in agreement with the database.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { connectStdio, pollUntil, runCli, tempStore, uniqueWord } from "./lib/engram.mjs";
import { keysOf, recallResults, textOf } from "./lib/tools.mjs";

const PROCS = 3;
const WRITES = Number(process.env.ENGRAM_E2E_WRITES ?? 60);
/**
 * How soon a write acknowledged by one process must be recallable through another, measured from
 * the acknowledgement to the answer that contains it (after a warm-up of each JVM).
 */
const VISIBILITY_MS = Number(process.env.ENGRAM_E2E_VISIBILITY_MS ?? 1000);

describe("three processes on one store", { timeout: 170_000 }, () => {
  const store = tempStore();
  let servers = [];
  const acked = []; // { proc, key, word, id }
  const refused = []; // writes that came back isError
  const crossReads = { tried: 0, found: 0 };

  before(async () => {
    // sequential start: the first one creates the store, the others open it
    servers.push(await connectStdio(store, "proc-0"));
    servers.push(...await Promise.all([1, 2].map((p) => connectStdio(store, `proc-${p}`))));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it("a write by process A is recallable through process B within ~1 s", async () => {
    // warm each JVM up first (class loading, JIT, index readers): the check is about the store's
    // cross-process visibility, not about a cold JVM's first search
    for (const [p, s] of servers.entries()) {
      const word = uniqueWord("zqu");
      const r = await s.client.callTool({ name: "remember", arguments: { key: `warmup-${p}`, content: `Warm-up ${word} for process ${p}.` } });
      assert.ok(!r.isError, textOf(r));
      for (const o of servers) await o.client.callTool({ name: "recall", arguments: { query: word } });
    }
    for (const [a, b] of [[0, 1], [1, 2], [2, 0]]) {
      const word = uniqueWord("zqv");
      const key = `vis-${a}-${b}-${word}`;
      const r = await servers[a].client.callTool({ name: "remember", arguments: { key, content: `Visibility probe ${word} written by process ${a}.` } });
      assert.ok(!r.isError, textOf(r));
      const t0 = Date.now();
      const found = await pollUntil(async () => {
        const rr = await servers[b].client.callTool({ name: "recall", arguments: { query: word } });
        return !rr.isError && keysOf(rr.structuredContent?.results ?? []).includes(key);
      }, { timeoutMs: VISIBILITY_MS, intervalMs: 50 });
      const elapsed = Date.now() - t0;
      console.log(`# write ${a} -> visible in ${b} after ${elapsed} ms`);
      assert.ok(found, `process ${b} did not see process ${a}'s write '${key}' within ${VISIBILITY_MS} ms`);
      assert.ok(elapsed <= VISIBILITY_MS, `process ${b} saw process ${a}'s write only after ${elapsed} ms (limit ${VISIBILITY_MS} ms)`);
    }
  });

  it(`${PROCS} processes each write ${WRITES} memories while recalling each other's`, async () => {
    const writer = async (p) => {
      const client = servers[p].client;
      for (let i = 0; i < WRITES; i++) {
        const word = uniqueWord("zqw");
        const key = `p${p}-m${i}`;
        const args = { key, content: `${word} ${uniqueWord("zqx")} ${uniqueWord("zqy")} recorded by writer ${p} as entry ${i}.`, tags: [`writer-${p}`] };
        let r;
        try {
          r = await client.callTool({ name: "remember", arguments: args });
        } catch (e) {
          refused.push(`${key}: protocol error ${e.message}`);
          continue;
        }
        if (r.isError) {
          refused.push(`${key}: ${textOf(r)}`);
        } else {
          acked.push({ proc: p, key, word, id: r.structuredContent?.id });
        }
        // read another process's acknowledged write in between
        const others = acked.filter((x) => x.proc !== p);
        if (others.length) {
          const o = others[Math.floor(Math.random() * others.length)];
          crossReads.tried++;
          const rr = await client.callTool({ name: "recall", arguments: { query: o.word, limit: 5 } });
          assert.ok(!rr.isError, `recall during the writes failed in process ${p}: ${textOf(rr)}`);
          if (keysOf(rr.structuredContent?.results ?? []).includes(o.key)) crossReads.found++;
        }
      }
    };
    await Promise.all([0, 1, 2].map(writer));
    console.log(`# acked ${acked.length}, refused ${refused.length}, cross-process reads ${crossReads.found}/${crossReads.tried} found at once`);
    assert.deepEqual(refused, [], "writes were refused under contention");
    assert.equal(acked.length, PROCS * WRITES);
    assert.ok(crossReads.tried > WRITES, "the writers did not read each other's memories concurrently");
  });

  it("every acknowledged write is recalled exactly once, through every process", async () => {
    const problems = [];
    for (const [n, w] of acked.entries()) {
      const s = servers[n % PROCS]; // spread the checks over all three processes
      const results = await recallResults(s.client, { query: w.word, limit: 10 });
      const same = results.filter((r) => r.key === w.key);
      if (same.length !== 1 || results[0]?.key !== w.key) {
        problems.push(`${w.key} ('${w.word}'): ${same.length} results with that key, top ${results[0]?.key}`);
      }
    }
    assert.deepEqual(problems, [], `${problems.length} of ${acked.length} acknowledged writes are missing or duplicated`);
  });

  it("engram doctor agrees that index and database match", async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    const r = runCli(store, ["doctor"]);
    assert.equal(r.status, 0, `doctor exit ${r.status}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  });
});
