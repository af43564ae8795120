// The native libraries of SQLite's driver and of ONNX Runtime load from one copy in the user's data folder:
// a session of `engram mcp` that ends as agents end it (its input closed, and the process halts) leaves
// nothing behind in the temporary directory, where both libraries used to copy themselves at every start.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { jvmArgs, rawSession, tempDir, tempStore } from "./lib/engram.mjs";

const INIT = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "native", version: "1" } } }));

const filesUnder = (dir) => readdirSync(dir, { recursive: true }).filter((f) => statSync(join(dir, f)).isFile());

describe("native libraries", { timeout: 120_000 }, () => {
  it("load from the data folder, and a session leaves no copy in the temporary directory", async (t) => {
    if (process.platform !== "linux") return t.skip("reads /proc/PID/maps");
    const home = tempDir("engram-native-home-");
    const tmp = tempDir("engram-native-tmp-");
    const data = join(home, "data");
    const s = rawSession([`-Djava.io.tmpdir=${tmp}`, `-Duser.home=${home}`, ...jvmArgs(tempStore(), "mcp")],
      { env: { HOME: home, XDG_DATA_HOME: data, ENGRAM_EMBEDDER: "e5" } });
    s.send(INIT);
    await s.until(0);
    // the model loads in the background, 1.5 s after start-up: wait until ONNX Runtime is mapped
    const mapped = () => readFileSync(`/proc/${s.pid}/maps`, "utf8").split("\n")
      .map((line) => line.trim().split(/\s+/).slice(5).join(" "))
      .filter((path) => /libsqlitejdbc|libonnxruntime/.test(path));
    const deadline = Date.now() + 60_000;
    while (!mapped().some((p) => p.endsWith("libonnxruntime4j_jni.so")) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const libraries = [...new Set(mapped())];
    assert.equal(libraries.length, 3, `SQLite, ONNX Runtime and its JNI binding mapped: ${libraries}`);
    for (const path of libraries) assert.ok(path.startsWith(join(data, "engram", "native") + "/"), path);
    s.end();
    const { code } = await s.exit;
    assert.equal(code, 0, s.stderr.toString());
    // ONNX Runtime still creates an empty folder of its own there, removed only at a normal JVM exit
    assert.deepEqual(filesUnder(tmp), [], "nothing left in the temporary directory");
  });
});
