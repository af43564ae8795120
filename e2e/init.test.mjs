// engram init / uninstall and engram hook session-start from the jar, in a temporary project and home:
// the config it writes is the agent's, a second run changes nothing, the hook it registers briefs the
// session, and uninstall leaves the project as it was.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { JAR, JAVA, tempDir, tempStore, uniqueWord } from "./lib/engram.mjs";

describe("engram init", { timeout: 120_000 }, () => {
  const project = tempDir("engram-init-project-");
  const home = tempDir("engram-init-home-");
  const store = tempStore();
  mkdirSync(join(project, ".git"));
  mkdirSync(join(project, ".claude"));
  const run = (args, input, env = {}) => {
    const r = spawnSync(JAVA, [`-Duser.home=${home}`, "-jar", JAR, "--store", store, ...args],
      { cwd: project, encoding: "utf8", input, env: { ...process.env, HOME: home, PATH: "/usr/bin:/bin", ...env }, timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const word = uniqueWord("zqi");
  // the hook run in a JVM starts the hook daemon of this home's data folder (below); it would stay idle
  // for 30 minutes
  after(() => {
    const r = run(["hook", "daemon", "--stop"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it("registers the server and the session-start hook with the detected agent", () => {
    const r = run(["init"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const mcp = JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8"));
    const server = mcp.mcpServers.engram;
    // the repository's launcher beside the jar when there is one, else java -jar with the jar
    const launcher = resolve(JAR, "../../../engram");
    if (existsSync(launcher)) assert.equal(server.command, launcher, JSON.stringify(server));
    else {
      assert.ok(server.command.endsWith("java"), JSON.stringify(server));
      assert.equal(server.args[server.args.indexOf("-jar") + 1], JAR, JSON.stringify(server));
    }
    assert.ok(server.args.includes("mcp") && server.args.includes(store), JSON.stringify(server));
    const settings = JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8"));
    assert.match(settings.hooks.SessionStart[0].hooks[0].command, /hook session-start claude --profile native/);
  });

  it("a second run changes nothing", () => {
    const before = readFileSync(join(project, ".mcp.json"), "utf8");
    const r = run(["init"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Nothing changed/);
    assert.equal(readFileSync(join(project, ".mcp.json"), "utf8"), before);
  });

  it("the hook prints the project's memories as additionalContext", () => {
    assert.equal(run(["remember", `Releases of ${word} go out on Thursdays.`, "--key", "release-day"]).status, 0);
    const r = run(["hook", "session-start", "claude"], JSON.stringify({ session_id: "e2e", cwd: project, source: "startup" }));
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.hookSpecificOutput.hookEventName, "SessionStart");
    assert.match(out.hookSpecificOutput.additionalContext, new RegExp(word));
    // a plain `java -jar` hook starts no daemon: only the launcher's later calls could reach one
    assert.match(run(["hook", "daemon", "--status"]).stdout, /^no hook daemon runs/);
    // run by the launcher (which says so), it starts the hook daemon for this home's data folder, detached, a moment later
    const launched = run(["hook", "session-start", "claude"], JSON.stringify({ session_id: "e2e", cwd: project, source: "startup" }),
      { ENGRAM_HOOK_LAUNCHER: "1" });
    assert.equal(launched.status, 0, launched.stderr);
    let status = "";
    for (let i = 0; i < 30 && !/^hook daemon running/.test(status); i++) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      status = run(["hook", "daemon", "--status"]).stdout;
    }
    assert.match(status, new RegExp(`^hook daemon running: .*${home}`));
  });

  it("uninstall removes what init added", () => {
    const r = run(["uninstall"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(existsSync(join(project, ".mcp.json")), false);
    assert.equal(existsSync(join(project, ".claude", "settings.json")), false);
    assert.equal(existsSync(join(project, ".claude")), true, "the folder was there before init");
  });
});
