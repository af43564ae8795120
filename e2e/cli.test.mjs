// The command line on a real store: remember, recall --json, stats --json, export, import into a
// fresh store, doctor, version, and a bad argument that must fail with a message and no stack trace.
import assert from "node:assert/strict";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli, tempDir, tempStore, uniqueWord } from "./lib/engram.mjs";
import { assertNoStackTrace } from "./lib/tools.mjs";

const ok = (r, what) => {
  assert.equal(r.status, 0, `${what}: exit ${r.status}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r;
};
const json = (r, what) => {
  try { return JSON.parse(r.stdout); } catch { assert.fail(`${what}: stdout is not JSON:\n${r.stdout}`); }
};

describe("engram CLI", { timeout: 170_000 }, () => {
  const store = tempStore();
  const words = [uniqueWord("zqc"), uniqueWord("zqd")];
  let exportFile;

  it("version prints the version", () => {
    const r = ok(runCli(store, ["version"]), "version");
    assert.match(r.stdout + r.stderr, /engram \d+\.\d+\.\d+/);
  });

  it("remember, then recall --json finds it", () => {
    ok(runCli(store, ["remember", `The CLI stores ${words[0]} notes for later.`, "--key", "cli-a", "--tags", "cli,e2e"]), "remember a");
    ok(runCli(store, ["remember", `Exports keep ${words[1]} versions intact.`, "--key", "cli-b", "--type", "decision"]), "remember b");
    const res = json(ok(runCli(store, ["recall", words[0], "--json"]), "recall"), "recall --json");
    assert.equal(res.results?.[0]?.key, "cli-a", JSON.stringify(res));
    assert.deepEqual([...res.results[0].tags].sort(), ["cli", "e2e"]);
  });

  it("prints UTF-8 whatever the locale (an MCP client starts servers without LANG)", () => {
    const ascii = { LANG: "C", LC_ALL: "C" };
    const korean = `레디스 연결 수는 ${words[0]} 기준 20`;
    // the arguments in a UTF-8 locale (Java 17 reads argv in the locale's charset; the engram launcher sets a UTF-8 one)
    ok(runCli(store, ["remember", korean, "--key", "cli-korean"], { env: { LANG: "C.UTF-8", LC_ALL: "C.UTF-8" } }), "remember");
    const text = ok(runCli(store, ["recall", "--ids", "cli-korean"], { env: ascii }), "recall in the C locale").stdout;
    assert.ok(text.includes(korean), text);
    const res = json(ok(runCli(store, ["recall", "--ids", "cli-korean", "--json"], { env: ascii }), "recall --json"), "recall --json");
    assert.equal(res.results?.[0]?.content, korean, JSON.stringify(res));
    ok(runCli(store, ["forget", "cli-korean", "--hard"], { env: ascii }), "forget");
  });

  it("stats --json counts the memories", () => {
    const s = json(ok(runCli(store, ["stats", "--json"]), "stats"), "stats --json");
    assert.equal(s.total, 2, JSON.stringify(s));
  });

  it("export writes every memory; import restores them into a fresh store with the same ids", () => {
    const r = ok(runCli(store, ["export"]), "export");
    const lines = r.stdout.split("\n").filter((l) => l.trim());
    assert.ok(lines.length >= 2, `export wrote ${lines.length} lines:\n${r.stdout}`);
    for (const l of lines) JSON.parse(l);
    exportFile = join(tempDir(), "export.jsonl");
    writeFileSync(exportFile, r.stdout);
    const before = json(ok(runCli(store, ["recall", words[1], "--json"]), "recall b"), "recall b");
    const fresh = tempStore();
    ok(runCli(fresh, ["import", exportFile]), "import");
    const after = json(ok(runCli(fresh, ["recall", words[1], "--json"]), "recall b after import"), "recall b after import");
    assert.equal(after.results?.[0]?.key, "cli-b");
    assert.equal(after.results[0].id, before.results[0].id, "import keeps ids");
    assert.equal(json(ok(runCli(fresh, ["stats", "--json"]), "stats fresh"), "stats").total, 2);
    ok(runCli(fresh, ["doctor"]), "doctor on the imported store");
    // a second export of the imported store carries the same memories
    const again = ok(runCli(fresh, ["export"]), "export again").stdout.split("\n").filter((l) => l.trim());
    assert.equal(again.length, lines.length);
    assert.ok(readFileSync(exportFile, "utf8").length > 0);
  });

  it("a bad argument fails with a message naming it and no stack trace", () => {
    const r = runCli(store, ["remember", "A note with a broken expiry.", "--ttl", "tomorrow-ish"]);
    assert.notEqual(r.status, 0, "remember with a bad TTL succeeded");
    assert.match(r.stderr, /ttl/i);
    assertNoStackTrace(r.stderr + r.stdout, "CLI error");
    const s = json(ok(runCli(store, ["stats", "--json"]), "stats"), "stats --json");
    assert.equal(s.total, 2, "the rejected memory was stored");
  });

  it("doctor passes", () => {
    ok(runCli(store, ["doctor"]), "doctor");
  });
});
