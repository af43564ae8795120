// The hook daemon through the real launcher, as a host runs `engram hook post-tool`: the first call
// finds no daemon, answers in a JVM and starts one; the next calls are answered by the daemon (same
// output shape, gates included); session-start, prompt and stop answered by it byte for byte as by a JVM
// (prompt and stop left to the JVM with a chat model); capture too, writing the JVM's log lines (left to
// the JVM with GIT_DIR set); an event the launcher read for a daemon that cannot answer reaches the JVM
// whole; a daemon killed with its endpoint file left behind costs one JVM call, which starts a fresh
// daemon over the stale file; `engram hook daemon --stop` ends it. No daemon outlives the test.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import { dirname, join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { JAR, pollUntil, runCli, tempDir, tempStore } from "./lib/engram.mjs";

const waitFor = (probe, timeoutMs) => pollUntil(probe, { timeoutMs, intervalMs: 100 });

const LAUNCHER = resolve(JAR, "../../../engram");

// the launcher beside a link to the jar and no sources: it never decides to rebuild during the test
function launcherCopy() {
  const root = tempDir("engram-hookd-");
  copyFileSync(LAUNCHER, join(root, "engram"));
  mkdirSync(join(root, "engram-cli", "target"), { recursive: true });
  symlinkSync(JAR, join(root, "engram-cli", "target", "engram.jar"));
  return root;
}

const alive = (pid) => {
  try { process.kill(pid, 0); return true; } catch { return false; }
};

describe("engram hook daemon through the launcher", { timeout: 170_000, skip: !existsSync(LAUNCHER) && "no launcher beside the jar" }, () => {
  const root = launcherCopy();
  const data = join(root, "data");
  const store = tempStore();
  const hookd = join(data, "engram", "hookd");
  const endpoint = () => {
    try {
      const [port, pid] = readFileSync(join(hookd, "endpoint"), "utf8").trim().split(" ").map(Number);
      return { port, pid };
    } catch { return null; }
  };
  const env = {
    ...process.env, XDG_DATA_HOME: data, ENGRAM_HOME: store, ENGRAM_HOOK_DAEMON_TRACE: "1",
    ENGRAM_PROXY_SURFACING__MAX_SURFACINGS_PER_MINUTE: "1000",
  };
  delete env.ENGRAM_HOOK_DAEMON;
  if (process.env.ENGRAM_JAVA) env.JAVA_HOME = dirname(dirname(process.env.ENGRAM_JAVA));
  const hook = (event, ...args) => {
    const r = spawnSync(join(root, "engram"), ["hook", "post-tool", ...args], { encoding: "utf8", env, input: JSON.stringify(event),
      timeout: 120_000, cwd: root });
    if (r.error) throw r.error;
    return r;
  };
  const big = "x".repeat(6000);
  const read = (path, content = big) => ({ session_id: "s1", cwd: "/repo", hook_event_name: "PostToolUse", tool_name: "Read",
    tool_input: { file_path: path }, tool_response: { type: "text", file: { filePath: path, content } } });
  const context = (r) => JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
  const pids = new Set();

  after(() => {
    const e = endpoint();
    if (e) pids.add(e.pid);
    for (const pid of pids) { try { process.kill(pid, "SIGKILL"); } catch { /* gone */ } }
  });

  it("the first call answers in a JVM and starts the daemon; the next are answered by it", async () => {
    assert.equal(runCli(store, ["remember", "The JWT handler rejects tokens older than 15 minutes; refresh them in the client",
      "--type", "warning", "--file", "src/auth/jwt_handler.py"]).status, 0);
    assert.equal(runCli(store, ["remember", "Deploys of the billing service need the payments migration applied first",
      "--type", "procedure"]).status, 0);
    const first = hook(read("/repo/src/auth/jwt_handler.py"));
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stderr, /running the hook in a JVM/);
    assert.match(context(first), /JWT handler rejects tokens/);
    const started = await waitFor(() => endpoint(), 90_000);
    assert.ok(started, `no daemon started:\n${existsSync(join(hookd, "daemon.log")) ? readFileSync(join(hookd, "daemon.log"), "utf8") : ""}`);
    pids.add(started.pid);

    const codex = { session_id: "c1", turn_id: "t1", cwd: "/repo", hook_event_name: "PostToolUse", tool_name: "Bash",
      tool_input: { command: "deploy billing service after payments migration" }, tool_response: big };
    const second = hook(codex);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`answered by the hook daemon \\(pid ${started.pid}\\)`));
    assert.match(context(second), /payments migration applied first/);
    // the gates say no through the daemon too: nothing printed, exit 0
    const again = hook(read("/repo/src/auth/jwt_handler.py"));
    assert.equal(again.status, 0);
    assert.equal(again.stdout, "", "the cooldown and dedup window, kept in the store's state file");
    assert.match(again.stderr, /answered by the hook daemon/);
    const bad = spawnSync(join(root, "engram"), ["hook", "post-tool"], { encoding: "utf8", env, input: "not json", cwd: root });
    assert.equal(bad.status, 1, "an unreadable event is exit 1 through the daemon as in a JVM");
    assert.match(bad.stderr, /^engram hook post-tool: stdin is not a JSON object/);
    assert.match(bad.stderr, /answered by the hook daemon/);
  });

  it("session-start, prompt and stop are answered by it with the JVM's bytes; with a chat model prompt and stop stay in the JVM", () => {
    const e = endpoint();
    assert.ok(e, "a daemon from the test before");
    // an entity for the prompt hook to recall (it recalls brain-tools' entities)
    const graph = join(root, "memory.jsonl");
    writeFileSync(graph, JSON.stringify({ type: "entity", name: "billing-service", entityType: "Project",
      observations: ["deploys after the payments migration"] }) + "\n");
    assert.equal(runCli(store, ["import", "--from", "server-memory", graph]).status, 0);
    const run = (args, event, extra = {}) => {
      const r = spawnSync(join(root, "engram"), ["hook", ...args], { encoding: "utf8", env: { ...env, ...extra }, input: event, cwd: root,
        timeout: 120_000 });
      if (r.error) throw r.error;
      return r;
    };
    const trace = /^engram: (answered by the hook daemon \(pid \d+\)|no hook daemon answered; running the hook in a JVM)\n/m;
    const claude = JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "SessionStart", source: "startup" });
    const antigravity = JSON.stringify({ conversationId: "c1", workspacePaths: [root], hookEventName: "PreInvocation" });
    const prompt = JSON.stringify({ session_id: "s1", cwd: root, prompt: "How do we deploy the billing service after the payments migration?" });
    const stop = JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "Stop" });
    const calls = [[["session-start", "claude"], claude], [["session-start", "antigravity"], antigravity], [["session-start"], ""],
      [["prompt"], prompt], [["stop"], stop], [["stop", "antigravity"], stop]];
    for (const [args, event] of calls) {
      const served = run(args, event);
      const own = run(args, event, { ENGRAM_HOOK_DAEMON: "off" });
      const what = `hook ${args.join(" ")}`;
      assert.match(served.stderr, new RegExp(`answered by the hook daemon \\(pid ${e.pid}\\)`), `${what}: ${served.stderr}`);
      assert.match(own.stderr, /running the hook in a JVM/, what);
      assert.equal(served.status, own.status, what);
      assert.equal(served.stdout, own.stdout, what);
      assert.equal(served.stderr.replace(trace, ""), own.stderr.replace(trace, ""), what);
    }
    assert.match(run(...calls[0]).stdout, /payments migration applied first/, "the briefing");
    assert.match(run(...calls[1]).stdout, /^\{"injectSteps":\[\{"ephemeralMessage":/, "Antigravity's step");
    assert.match(run(...calls[3]).stdout, /\*\*billing-service\*\* \(Project\)/, "the prompt's memories");
    // a chat model: the launcher keeps prompt and stop in the JVM (the model may take longer than it waits)
    const model = { AI_API_KEY: "k", AI_API_BASE: "http://127.0.0.1:9/v1", MEMORY_HOOK_AI_TIMEOUT: "300", MEMORY_SAVE_AI_TIMEOUT: "300" };
    for (const [args, event] of [calls[3], calls[4]]) {
      const r = run(args, event, model);
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /answered by the hook daemon/, args.join(" "));
      assert.match(r.stderr, /^engram hook (prompt|stop): /m, "the JVM's hook ran, and tried the model: " + r.stderr);
    }
    assert.match(run(calls[0][0], calls[0][1], model).stderr, /answered by the hook daemon/, "the briefing asks no model");
  });

  it("capture is answered by it with the JVM's bytes and log lines; not with GIT_DIR set", () => {
    const e = endpoint();
    assert.ok(e, "a daemon from the test before");
    const run = (args, event, extra = {}) => {
      const r = spawnSync(join(root, "engram"), ["hook", ...args], { encoding: "utf8", env: { ...env, ENGRAM_CAPTURE: "1", ...extra },
        input: event, cwd: root, timeout: 120_000 });
      if (r.error) throw r.error;
      return r;
    };
    // the log lines but their time (the first field)
    const log = (project) => readFileSync(join(project, ".toon-memory", "memory", "observations.toon"), "utf8")
      .split("\n").filter((l) => l.startsWith("  ")).map((l) => l.replace(/^  [^|]*\|/, ""));
    const trace = /^engram: (answered by the hook daemon \(pid \d+\)|no hook daemon answered; running the hook in a JVM)\n/m;
    const projects = { served: join(root, "capture-served"), own: join(root, "capture-own") };
    for (const p of Object.values(projects)) mkdirSync(p, { recursive: true });
    const events = (cwd) => [
      [["capture", "claude"], { session_id: "s1", cwd, tool_name: "Bash", tool_input: { command: "deploy --token=ghp_" + "a".repeat(36) } }],
      [["capture", "antigravity"], { session_id: "s1", cwd, tool_name: "Edit", tool_input: { file_path: "src/a.js", new_string: "x = 1" } }],
      [["capture"], { session_id: "s1", cwd, tool_name: "Edit", tool_input: { file_path: "src/a.js", new_string: "x = 1" } }],
    ];
    const served = events(projects.served);
    const own = events(projects.own);
    for (let i = 0; i < served.length; i++) {
      const a = run(served[i][0], JSON.stringify(served[i][1]));
      const b = run(own[i][0], JSON.stringify(own[i][1]), { ENGRAM_HOOK_DAEMON: "off" });
      const what = `hook ${served[i][0].join(" ")}`;
      assert.match(a.stderr, new RegExp(`answered by the hook daemon \\(pid ${e.pid}\\)`), `${what}: ${a.stderr}`);
      assert.match(b.stderr, /running the hook in a JVM/, what);
      assert.equal(a.status, b.status, what);
      assert.equal(a.stdout, b.stdout, what);
      assert.equal(a.stderr.replace(trace, ""), b.stderr.replace(trace, ""), what);
      assert.deepEqual(log(projects.served), log(projects.own), what);
    }
    assert.equal(log(projects.served).length, 2, "the repeated Edit is logged once");
    assert.match(log(projects.served)[1], /^s1\|claude\|\|Bash\|[0-9a-f]{16}\|\|deploy --token=<redacted>$/);
    assert.equal(run(served[1][0], "{}").stdout, "{}\n", "Antigravity's answer");
    // git would look elsewhere: the launcher does not even try the daemon, the JVM logs the call
    const moved = run(["capture"], JSON.stringify({ session_id: "s1", cwd: projects.served, tool_name: "Read", tool_input: { file_path: "b" } }),
      { GIT_DIR: join(root, "no-repo") });
    assert.equal(moved.status, 0, moved.stderr);
    assert.doesNotMatch(moved.stderr, /hook daemon/);
    assert.match(log(projects.served)[0], /^s1\|agent\|\|Read\|[0-9a-f]{16}\|b\|/);
    assert.match(run(["capture"], "{}", { GIT_EDITOR: "vi" }).stderr, /answered by the hook daemon/, "an editor moves no repository");
  });

  it("an event read for a daemon that then cannot answer goes to the JVM whole", async () => {
    // another data folder whose endpoint names a live process (this test's) and a port nobody listens on: the
    // launcher reads the event, cannot connect, and replays the event to the JVM
    const otherData = join(root, "other-data");
    const otherHookd = join(otherData, "engram", "hookd");
    mkdirSync(otherHookd, { recursive: true, mode: 0o700 });
    const closed = net.createServer();
    await new Promise((res) => closed.listen(0, "127.0.0.1", res));
    const port = closed.address().port;
    await new Promise((res) => closed.close(res));
    writeFileSync(join(otherHookd, "endpoint"), `${port} ${process.pid}\n`, { mode: 0o600 });
    writeFileSync(join(otherHookd, "auth"), "Authorization: Bearer 00\n", { mode: 0o600 });
    const otherEnv = { ...env, XDG_DATA_HOME: otherData };
    const event = JSON.stringify({ conversationId: "c1", workspacePaths: [root], hookEventName: "PreInvocation" });
    const replayed = spawnSync(join(root, "engram"), ["hook", "session-start", "antigravity"], { encoding: "utf8", env: otherEnv,
      input: event, cwd: root, timeout: 120_000 });
    const own = spawnSync(join(root, "engram"), ["hook", "session-start", "antigravity"], { encoding: "utf8",
      env: { ...otherEnv, ENGRAM_HOOK_DAEMON: "off" }, input: event, cwd: root, timeout: 120_000 });
    assert.equal(replayed.status, 0, replayed.stderr);
    assert.match(replayed.stderr, /running the hook in a JVM/);
    assert.match(replayed.stdout, /payments migration applied first/, "the JVM got the event the launcher had read");
    assert.equal(replayed.stdout, own.stdout);
    // the JVM started that folder's daemon over the dead endpoint: ended here
    const started = await waitFor(() => {
      try {
        const [p, pid] = readFileSync(join(otherHookd, "endpoint"), "utf8").trim().split(" ").map(Number);
        return pid !== process.pid ? { port: p, pid } : null;
      } catch { return null; }
    }, 90_000);
    assert.ok(started, "a daemon for the other data folder");
    pids.add(started.pid);
    const stop = spawnSync(join(root, "engram"), ["hook", "daemon", "--stop"], { encoding: "utf8", env: otherEnv, cwd: root, timeout: 60_000 });
    assert.equal(stop.status, 0, stop.stderr);
  });

  it("a killed daemon's stale endpoint costs one JVM call, which starts a new daemon; --stop ends it", async () => {
    const old = endpoint();
    assert.ok(old, "a daemon from the test before");
    process.kill(old.pid, "SIGKILL");
    await waitFor(() => !alive(old.pid), 10_000);
    assert.ok(existsSync(join(hookd, "endpoint")), "the endpoint file is left behind by SIGKILL");
    const r = hook({ ...read("/repo/src/billing/deploy.sh"), tool_input: { file_path: "/repo/src/billing/deploy.sh" } });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /running the hook in a JVM/);
    const fresh = await waitFor(() => { const e = endpoint(); return e && e.pid !== old.pid ? e : null; }, 90_000);
    assert.ok(fresh, "a new daemon replaced the stale endpoint");
    pids.add(fresh.pid);
    assert.match(hook(read("/repo/src/auth/session.py")).stderr, /answered by the hook daemon/);
    // switched off: the JVM answers though a daemon runs
    const off = spawnSync(join(root, "engram"), ["hook", "post-tool"], { encoding: "utf8", env: { ...env, ENGRAM_HOOK_DAEMON: "off" },
      input: JSON.stringify(read("/repo/src/auth/token.py")), cwd: root, timeout: 120_000 });
    assert.equal(off.status, 0, off.stderr);
    assert.match(off.stderr, /running the hook in a JVM/);
    assert.deepEqual(endpoint(), fresh, "and starts no other daemon");

    const stop = spawnSync(join(root, "engram"), ["hook", "daemon", "--stop"], { encoding: "utf8", env, cwd: root, timeout: 60_000 });
    assert.equal(stop.status, 0, stop.stderr);
    assert.match(stop.stdout, new RegExp(`hook daemon pid ${fresh.pid} stopped`));
    assert.ok(await waitFor(() => !alive(fresh.pid), 10_000), "the daemon process ended");
    assert.equal(endpoint(), null, "no endpoint left");
    assert.ok(!existsSync(join(hookd, "auth")), "no secret left");
  });
});
