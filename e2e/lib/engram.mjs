// Process and transport plumbing shared by every end-to-end script: where the jar is, how to start
// `engram mcp` / `engram serve`, how to run a CLI command, and how to make sure nothing outlives the test.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readlinkSync, readFileSync, rmSync, existsSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const E2E_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The runnable jar: ENGRAM_JAR, else the one the Maven build leaves in engram-cli/target. */
export const JAR = resolve(E2E_DIR, process.env.ENGRAM_JAR ?? "../engram-cli/target/engram.jar");
/** The java binary: ENGRAM_JAVA (the Maven IT passes its own JVM), else java from PATH. */
export const JAVA = process.env.ENGRAM_JAVA ?? "java";
/** Small heaps and a fast-starting JIT: up to four JVMs share two cores during these tests. */
const JVM_OPTS = (process.env.ENGRAM_E2E_JVM_OPTS ?? "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1")
  .split(/\s+/).filter(Boolean);

if (!existsSync(JAR)) {
  throw new Error(`engram jar not found at ${JAR}: build it first (mvn -B -DskipTests package) or set ENGRAM_JAR`);
}

// ---- cleanup: every process started here is killed when the test process ends, pass or fail ----
const children = new Set();
const tempDirs = new Set();
function killAll() {
  for (const c of children) {
    try { c.kill("SIGKILL"); } catch { /* already gone */ }
  }
  children.clear();
  if (!process.env.ENGRAM_E2E_KEEP) {
    for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  }
}
process.on("exit", killAll);
// a root-level hook: runs once every test of the importing file is done, pass or fail, so a server a
// failed test left running cannot keep the test process (and the Maven build) waiting
after(killAll);
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => { killAll(); process.exit(130); });
}
export function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** A fresh temporary directory, removed at exit (kept when ENGRAM_E2E_KEEP is set). */
export function tempDir(prefix = "engram-e2e-") {
  const d = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(d);
  return d;
}

/** A fresh store directory (does not exist yet, so the server creates it). */
export function tempStore() {
  return join(tempDir(), "store");
}

/** Keeps the last `max` characters of a stream, for failure messages. */
export class Tail {
  constructor(max = 8000) { this.max = max; this.text = ""; }
  push(chunk) {
    this.text += chunk.toString();
    if (this.text.length > this.max) this.text = this.text.slice(-this.max);
  }
  toString() { return this.text; }
}

export function jvmArgs(store, ...rest) {
  return [...JVM_OPTS, "-jar", JAR, "--store", store, ...rest];
}

/** Asserts that pid is a JVM process itself (not a shell or launcher wrapping it). */
export function assertIsJvm(pid) {
  const exe = readlinkSync(`/proc/${pid}/exe`);
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  if (!/\/java$/.test(exe) || !cmdline.includes("-jar")) {
    throw new Error(`pid ${pid} is not the JVM (exe=${exe}, cmdline=${cmdline.join(" ")})`);
  }
}

export const clientInfo = (name) => ({ name: `engram-e2e-${name}`, version: "1.0.0" });

/**
 * Starts `engram --store STORE mcp [mcpArgs]` through the SDK's stdio transport and connects a client;
 * `env` adds variables to the server's environment, `cwd` is its working directory. Returns { client, transport, pid, stderr (Tail), close() }.
 */
export async function connectStdio(store, name = "stdio", { mcpArgs = [], env, cwd } = {}) {
  const transport = new StdioClientTransport({
    command: JAVA,
    args: jvmArgs(store, "mcp", ...mcpArgs),
    stderr: "pipe",
    // the server's working directory: the project a profile reads (the toon profile's .toon-memory), and the
    // only tree inspect_files reads
    ...(cwd ? { cwd } : {}),
    ...(env ? { env } : {}), // added to the SDK's default environment (PATH, HOME, ...)
  });
  const stderr = new Tail();
  transport.stderr.on("data", (d) => stderr.push(d));
  const client = new Client(clientInfo(name));
  try {
    await client.connect(transport);
  } catch (e) {
    await transport.close().catch(() => {});
    throw new Error(`could not start 'engram mcp' (${e.message}); server stderr:\n${stderr}`);
  }
  const pid = transport.pid;
  // the transport spawns java directly; register it so a failing test still kills it
  track({ kill: (s) => { try { process.kill(pid, s); } catch { /* gone */ } }, once: () => {} });
  return {
    client, transport, pid, stderr,
    async close() { await client.close().catch(() => {}); },
  };
}

/**
 * A raw line-level session with a spawned JVM (`java ...args`), for what the SDK's transport hides: send bytes, await
 * the lines up to a given id, signal the process and read its exit code. `env` adds variables to its environment.
 */
export function rawSession(args, { env } = {}) {
  const child = track(spawn(JAVA, args, { stdio: ["pipe", "pipe", "pipe"], ...(env ? { env: { ...process.env, ...env } } : {}) }));
  let exited = null;
  const exit = new Promise((resolve) => child.once("exit", (code, signal) => { exited = code; resolve({ code, signal }); }));
  const stderr = new Tail();
  child.stderr.on("data", (d) => stderr.push(d));
  let buffered = "";
  const lines = [];
  let waiter = null;
  child.stdout.on("data", (d) => {
    buffered += d.toString("utf8");
    let nl;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      lines.push(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
    waiter?.();
  });
  return {
    stderr,
    pid: child.pid,
    /** Resolves with { code, signal } once the process has exited. */
    exit,
    send(bytes) { child.stdin.write(Buffer.concat([bytes, Buffer.from("\n")])); },
    /** Every line written until a line with id `untilId` (inclusive), within a deadline. */
    async until(untilId, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      const seen = [];
      for (;;) {
        while (lines.length) {
          const line = lines.shift();
          const msg = JSON.parse(line);
          seen.push(msg);
          if (msg.id === untilId) return seen;
        }
        if (exited !== null) throw new Error(`server exited with code ${exited}; read so far: ${JSON.stringify(seen)}`);
        if (Date.now() > deadline) throw new Error(`no answer with id ${untilId}; read so far: ${JSON.stringify(seen)}`);
        await new Promise((r) => { waiter = r; setTimeout(r, 200); });
      }
    },
    kill(signal) { child.kill(signal); },
    /** Ends the input, as an agent does when its session ends. */
    end() { child.stdin.end(); },
    close() { child.stdin.end(); child.kill("SIGKILL"); },
  };
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/**
 * A raw HTTP request (node:http, so the Host header can be anything). Resolves to
 * { status, headers, body } and never throws on HTTP error statuses.
 */
export function rawRequest(url, { method = "POST", headers = {}, body } = {}) {
  return new Promise((res, rej) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers }, (resp) => {
      const chunks = [];
      resp.on("data", (c) => chunks.push(c));
      resp.on("end", () => res({ status: resp.statusCode, headers: resp.headers, body: Buffer.concat(chunks).toString() }));
      resp.on("error", rej);
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`timeout on ${method} ${url}`)));
    req.on("error", rej);
    if (body !== undefined) req.write(typeof body === "string" ? body : JSON.stringify(body));
    req.end();
  });
}

export const INITIALIZE = {
  jsonrpc: "2.0", id: 1, method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: clientInfo("raw") },
};
export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/**
 * Starts `engram --store STORE serve --host 127.0.0.1 --port P [extra]` and waits (bounded) until it
 * answers HTTP; `env` adds variables to its environment, `port` reuses a port (a replica restarted), `cwd` is its
 * working directory (the toon profile keeps its .toon-memory folder there).
 * Returns { url, port, proc, stderr, stop() }.
 */
export async function startServe(store, { tokens, extraArgs = [], readyTimeoutMs = 60_000, env: extraEnv = {}, port: fixedPort, cwd } = {}) {
  const port = fixedPort ?? await freePort();
  const env = { ...process.env, ...extraEnv };
  delete env.ENGRAM_TOKENS;
  if (tokens) env.ENGRAM_TOKENS = tokens.join(",");
  const proc = track(spawn(JAVA, jvmArgs(store, "serve", "--host", "127.0.0.1", "--port", String(port), ...extraArgs),
    { env, stdio: ["ignore", "pipe", "pipe"], ...(cwd ? { cwd } : {}) }));
  const out = new Tail();
  proc.stdout.on("data", (d) => out.push(d));
  proc.stderr.on("data", (d) => out.push(d));
  let exited = null;
  proc.once("exit", (code, sig) => { exited = `exit code ${code}, signal ${sig}`; });
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited) throw new Error(`'engram serve' ended before it listened (${exited}); output:\n${out}`);
    try {
      await rawRequest(url, { method: "POST", headers: MCP_HEADERS, body: INITIALIZE });
      break; // any HTTP answer (even 401) means it is listening
    } catch {
      if (Date.now() > deadline) {
        proc.kill("SIGKILL");
        throw new Error(`'engram serve' did not answer on ${url} within ${readyTimeoutMs} ms; output:\n${out}`);
      }
      await sleep(100);
    }
  }
  return {
    url, port, proc, output: out,
    async stop() {
      if (exited) return;
      const gone = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await gone;
      clearTimeout(t);
    },
  };
}

/** Connects an SDK client over Streamable HTTP, with a bearer token when given, and any other headers. */
export async function connectHttp(url, token, name = "http", headers = {}) {
  const all = { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const transport = new StreamableHTTPClientTransport(new URL(url),
    Object.keys(all).length ? { requestInit: { headers: all } } : {});
  const client = new Client(clientInfo(name));
  await client.connect(transport);
  return { client, transport, async close() { await transport.terminateSession().catch(() => {}); await client.close().catch(() => {}); } };
}

/**
 * Runs an `engram` CLI command to completion (bounded). Returns { status, stdout, stderr }. A hook answered in a JVM
 * starts the hook daemon of the user's data folder, which a test must not leave behind: the daemon is off unless `env`
 * turns it on (hookd.test.mjs and init.test.mjs test it with a data folder of their own).
 */
export function runCli(store, args, { timeoutMs = 120_000, input, env } = {}) {
  const r = spawnSync(JAVA, jvmArgs(store, ...args), { encoding: "utf8", timeout: timeoutMs, input,
    env: { ...process.env, ENGRAM_HOOK_DAEMON: "off", ...env } });
  if (r.error) throw new Error(`engram ${args.join(" ")} failed to run: ${r.error.message}`);
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a CLI command against a running server (`--remote URL` among `args`): no local store is named. */
export function runRemoteCli(args, { timeoutMs = 120_000 } = {}) {
  const r = spawnSync(JAVA, [...JVM_OPTS, "-jar", JAR, ...args], { encoding: "utf8", timeout: timeoutMs });
  if (r.error) throw new Error(`engram ${args.join(" ")} failed to run: ${r.error.message}`);
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a truthy value or the deadline passes; returns the value or null. */
export async function pollUntil(probe, { timeoutMs, intervalMs = 50 }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() >= deadline) return null;
    await sleep(intervalMs);
  }
}

/** A random lowercase word no dictionary or other test run will contain (letters only, so no tokenizer splits it). */
export function uniqueWord(prefix = "zq") {
  const letters = "bcdfghjklmnpqrstvwxz";
  let w = prefix;
  for (let i = 0; i < 10; i++) w += letters[Math.floor(Math.random() * letters.length)];
  return w;
}

