// `engram proxy` in front of an upstream that speaks the older HTTP+SSE transport: server-everything from
// npm started with `sse`, added with `--transport sse`. Its tools through the proxy, `engram proxy doctor`
// on it, and the crash behaviour of the other transports: a server killed mid-call fails that call at once
// with a clear error, and once it is back the next call reconnects.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { freePort, runCli, sleep, tempStore, track } from "./lib/engram.mjs";
import { EVERYTHING, addUpstream, connectProxy } from "./lib/proxy.mjs";
import { textOf } from "./lib/tools.mjs";

/** server-everything's SSE mode on `port`; resolves once it listens. */
function startSseServer(port) {
  const child = track(spawn(process.execPath, [EVERYTHING, "sse"], {
    env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"],
  }));
  return new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error(`SSE server did not start:\n${err}`)), 30_000);
    child.stderr.on("data", (d) => {
      err += d;
      if (err.includes("Server is running on port")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) => reject(new Error(`SSE server exited (${code}):\n${err}`)));
  });
}

describe("engram proxy with an SSE upstream", { timeout: 120_000 }, () => {
  const store = tempStore();
  let port;
  let server;
  let proxy;
  let client;

  before(async () => {
    port = await freePort();
    server = await startSseServer(port);
    addUpstream(store, ["everything", "--transport", "sse", "--url", `http://127.0.0.1:${port}/sse`, "--prefix", "ev"]);
    proxy = await connectProxy(store);
    client = proxy.client;
  });
  after(async () => {
    await proxy?.close();
    server?.kill("SIGKILL");
  });

  it("lists and calls the SSE upstream's tools as prefix__tool", async () => {
    const { tools } = await client.listTools();
    const echoTool = tools.find((t) => t.name === "ev__echo");
    assert.ok(echoTool, tools.map((t) => t.name).join(", "));
    assert.match(echoTool.title, /^\[everything\] /);
    const r = await client.callTool({ name: "ev__echo", arguments: { message: "over sse" } });
    assert.ok(!r.isError, textOf(r));
    assert.match(textOf(r), /over sse/);
  });

  it("doctor starts it and reports PASS with its tool count", () => {
    const r = runCli(store, ["proxy", "doctor"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /PASS everything: started, initialized, tools\/list gave \d+ tools, \d+ exposed/);
  });

  it("a server killed mid-call fails that call at once; when it is back the next call reconnects", async () => {
    const call = client.callTool({ name: "ev__trigger-long-running-operation", arguments: { duration: 30, steps: 30 } },
      undefined, { timeout: 60_000 });
    await sleep(1500);
    const killedAt = Date.now();
    server.kill("SIGKILL");
    const r = await call;
    const took = Date.now() - killedAt;
    assert.equal(r.isError, true);
    assert.match(textOf(r), /upstream 'everything' dropped the connection during the call.*restarts it on the next call/s);
    assert.ok(took < 10_000, `failed when the stream ended, not at the call timeout: ${took} ms`);

    server = await startSseServer(port);
    const echo = await client.callTool({ name: "ev__echo", arguments: { message: "back again" } });
    assert.ok(!echo.isError, textOf(echo));
    assert.match(textOf(echo), /back again/);
  });
});
