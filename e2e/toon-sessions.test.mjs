// Sessions across processes: three `engram mcp --profile toon` processes on one store (and one project),
// each driven by its own SDK client, see each other in memory_sessions (the caller marked "(you)"), and a
// file two of them name is reported as a soft conflict. One process fixes its id with
// TOON_MEMORY_SESSION_ID; a fourth with TOON_MEMORY_NO_SESSION sees the three and records nothing itself.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { connectStdio, tempDir, tempStore } from "./lib/engram.mjs";
import { textOf } from "./lib/tools.mjs";

describe("toon sessions across processes", () => {
  const project = tempDir("engram-toon-sessions-");
  const store = tempStore();
  const servers = {};

  before(async () => {
    // one after another: the first creates the store, the others open it
    servers.a = await connectStdio(store, "alpha", { mcpArgs: ["--profile", "toon"], cwd: project });
    servers.b = await connectStdio(store, "beta", { mcpArgs: ["--profile", "toon"], cwd: project });
    servers.c = await connectStdio(store, "gamma", { mcpArgs: ["--profile", "toon"], cwd: project,
      env: { TOON_MEMORY_SESSION_ID: "gamma-fixed-id" } });
  });
  after(async () => { for (const s of Object.values(servers)) await s?.close(); });

  async function ok(server, name, args = {}) {
    const r = await servers[server].client.callTool({ name, arguments: args });
    assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
    return textOf(r);
  }

  it("each process sees the other two and itself marked, with a conflict on the shared file", async () => {
    await ok("a", "memory_remember", { category: "decision", key: "shared-types", content: "Types live in one file",
      file: "src/shared.ts" });
    await ok("b", "memory_remember", { category: "knowledge", key: "shared-types-b", content: "Beta edits the shared types",
      file: "./src/shared.ts" });
    await ok("c", "memory_remember", { category: "knowledge", key: "gamma-only", content: "Gamma works on its own file",
      file: "src/gamma.ts" });
    for (const [me, agent] of [["a", "engram-e2e-alpha"], ["b", "engram-e2e-beta"], ["c", "engram-e2e-gamma"]]) {
      const text = await ok(me, "memory_sessions");
      assert.match(text, /^🧭 Active sessions \(3\) — window 10 min:/, text);
      for (const other of ["alpha", "beta", "gamma"]) assert.match(text, new RegExp(`• engram-e2e-${other} @ `), text);
      assert.equal(text.match(/\(you\)/g)?.length, 1, text);
      assert.match(text, new RegExp(`• ${agent} @ \\S+ \\(you\\)`), text);
      assert.match(text, /id: gamma-fixed-id/, "TOON_MEMORY_SESSION_ID names gamma's session");
      assert.match(text, /🔥 Soft conflicts \(1\):\n   ⚠️ src\/shared\.ts  ↔  engram-e2e-(alpha|beta)@\S+, engram-e2e-(alpha|beta)@/, text);
      assert.doesNotMatch(text, /⚠️ src\/gamma\.ts/);
    }
    const only = await ok("c", "memory_sessions", { conflictsOnly: true });
    assert.match(only, /^🔥 Soft conflicts \(1\):\n\n⚠️ src\/shared\.ts\n   ↔ /, only);
    assert.doesNotMatch(only, /Active sessions/);
  });

  it("context_brief lists the sessions and the conflict; a checkpoint names the files its session touched", async () => {
    const brief = await ok("a", "context_brief");
    assert.match(brief, /## Sessions \(3 active\)/, brief);
    assert.match(brief, /\*\*Soft conflicts \(1\):\*\*\n- src\/shared\.ts ↔ /, brief);
    const cp = await ok("c", "memory_checkpoint", { note: "halfway" });
    assert.match(cp, /Files touched: src\/gamma\.ts/, cp);
  });

  it("a process with TOON_MEMORY_NO_SESSION records no session but sees the others", async () => {
    servers.d = await connectStdio(store, "delta", { mcpArgs: ["--profile", "toon"], cwd: project,
      env: { TOON_MEMORY_NO_SESSION: "1" } });
    const text = await ok("d", "memory_sessions");
    assert.match(text, /Active sessions \(3\)/, text);
    assert.doesNotMatch(text, /engram-e2e-delta|\(you\)/, text);
  });
});
