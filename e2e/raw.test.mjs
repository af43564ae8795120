// `engram mcp` and `engram proxy` over raw stdio: every class of line a careless or hostile client can
// write (blank, not JSON, truncated, NaN, deep nesting, huge numbers, invalid UTF-8, batches, bad ids,
// a missing jsonrpc, NUL bytes, bare values, params of the wrong shape, a line over 16 MiB) gets the
// JSON-RPC answer it calls for, or none for a blank line, and the server keeps serving: a ping after
// each line is answered.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { jvmArgs, rawSession, tempStore } from "./lib/engram.mjs";
import { addUpstream, connectProxy } from "./lib/proxy.mjs";
import { textOf } from "./lib/tools.mjs";

const INIT = { jsonrpc: "2.0", id: 0, method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const nest = (n) => "[".repeat(n) + "]".repeat(n);
const b = (s) => Buffer.from(s, "latin1");

// [name, bytes of the line (without its newline), expected { id, code } or null for no answer]
const CASES = [
  ["empty line", b(""), null],
  ["whitespace only", b("  \t \r"), null],
  ["not JSON", b("hello"), { id: null, code: -32700 }],
  ["truncated JSON", b('{"jsonrpc":"2.0","id":5,"method":"ping"'), { id: null, code: -32700 }],
  ["NaN", b('{"jsonrpc":"2.0","id":NaN,"method":"ping"}'), { id: null, code: -32700 }],
  ["Infinity", b('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":Infinity}}'), { id: null, code: -32700 }],
  ["nested 400 levels", b(`{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":${nest(400)}}}`), { id: null, code: -32600 }],
  ["tool arguments nested 900 levels", b(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"recall","arguments":{"query":${nest(900)}}}}`),
    { id: null, code: -32600 }],
  ["5,000-digit number", b(`{"jsonrpc":"2.0","id":${"9".repeat(5000)},"method":"ping"}`), { id: null, code: -32600 }],
  ["invalid UTF-8", Buffer.concat([b('{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":"'), Buffer.from([0xff, 0xfe]), b('"}}')]),
    { id: null, code: -32700 }],
  ["batch", b('[{"jsonrpc":"2.0","id":11,"method":"ping"}]'), { id: null, code: -32600 }],
  ["empty batch", b("[]"), { id: null, code: -32600 }],
  ["id null", b('{"jsonrpc":"2.0","id":null,"method":"ping"}'), { id: null, code: -32600 }],
  ["id an object", b('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}'), { id: null, code: -32600 }],
  ["id a decimal", b('{"jsonrpc":"2.0","id":1.5,"method":"ping"}'), { id: null, code: -32600 }],
  ["no jsonrpc", b('{"id":14,"method":"ping"}'), { id: 14, code: -32600 }],
  ["jsonrpc 1.0", b('{"jsonrpc":"1.0","id":15,"method":"ping"}'), { id: 15, code: -32600 }],
  ["raw NUL byte", Buffer.concat([b('{"jsonrpc":"2.0","id":16,'), Buffer.from([0]), b('"method":"ping"}')]), { id: null, code: -32700 }],
  ["bare string", b('"hello"'), { id: null, code: -32600 }],
  ["bare number", b("42"), { id: null, code: -32600 }],
  ["two values on one line", b('{"jsonrpc":"2.0","id":17,"method":"ping"} {}'), { id: null, code: -32700 }],
  ["no method", b('{"jsonrpc":"2.0","id":18}'), { id: 18, code: -32600 }],
  ["method a number", b('{"jsonrpc":"2.0","id":19,"method":5}'), { id: 19, code: -32600 }],
  ["tools/call without params", b('{"jsonrpc":"2.0","id":20,"method":"tools/call"}'), { id: 20, code: -32602 }],
  ["tools/call arguments an array", b('{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"x","arguments":[1]}}'), { id: 21, code: -32602 }],
  ["tools/call arguments a string", b('{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"x","arguments":"y"}}'), { id: 22, code: -32602 }],
  ["params an array", b('{"jsonrpc":"2.0","id":23,"method":"tools/list","params":[1]}'), { id: 23, code: -32602 }],
  ["resources/read without uri", b('{"jsonrpc":"2.0","id":24,"method":"resources/read","params":{}}'), { id: 24, code: -32602 }],
  ["unknown method", b('{"jsonrpc":"2.0","id":25,"method":"no/such"}'), { id: 25, code: -32601 }],
  ["a response nobody asked for", b('{"jsonrpc":"2.0","id":99,"result":{}}'), null],
  ["an error of the wrong shape", b('{"jsonrpc":"2.0","id":98,"error":"bad"}'), { id: null, code: -32600 }],
  ["UTF-16 text (starts with '{' and a NUL)", Buffer.from('{"jsonrpc":"2.0","id":28,"method":"ping"}', "utf16le"), { id: null, code: -32700 }],
  ["an error code over 32 bits", b('{"jsonrpc":"2.0","id":97,"error":{"code":2147483648,"message":"x"}}'), { id: null, code: -32600 }],
  ["a UTF-8 byte-order mark, then a request", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b('{"jsonrpc":"2.0","id":29,"method":"ping"}')]),
    { id: 29, result: true }],
  ["a line over 16 MiB", b(`{"jsonrpc":"2.0","id":26,"method":"ping","params":{"x":"${"a".repeat(17 << 20)}"}}`), { id: null, code: -32600 }],
];

function lineClassTests(name, args) {
  describe(`${name}: raw lines over stdio`, { timeout: 240_000 }, () => {
    it("answers each line class as JSON-RPC says and keeps serving", async () => {
      const s = rawSession(args);
      try {
        s.send(Buffer.from(JSON.stringify(INIT)));
        const [init] = await s.until(0, 60_000);
        assert.ok(init.result?.serverInfo, JSON.stringify(init));
        s.send(Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
        let pingId = 1000;
        for (const [label, line, expected] of CASES) {
          s.send(line);
          const id = pingId++;
          s.send(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })));
          const seen = await s.until(id);
          const ping = seen.pop();
          assert.deepEqual(ping.result, {}, `${label}: ping after it`);
          if (expected === null) {
            assert.deepEqual(seen, [], `${label}: no answer expected`);
            continue;
          }
          assert.equal(seen.length, 1, `${label}: one answer expected, got ${JSON.stringify(seen)}`);
          const [answer] = seen;
          if (expected.result) {
            assert.equal(answer.id, expected.id, label);
            assert.deepEqual(answer.result, {}, `${label}: ${JSON.stringify(answer)}`);
            continue;
          }
          assert.equal(answer.jsonrpc, "2.0", label);
          assert.equal(answer.id, expected.id, `${label}: id`);
          assert.equal(answer.error?.code, expected.code, `${label}: ${JSON.stringify(answer)}`);
          const message = answer.error.message;
          assert.ok(message.length > 10 && message.length < 400, `${label}: a short message, got ${message.length} chars`);
          assert.doesNotMatch(message, /\b(java|tools\.jackson|io\.modelcontextprotocol)\.|Exception|JsonReadFeature/, label);
        }
        // a real tool call still works at the end
        s.send(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })));
        const [list] = await s.until(1);
        assert.ok(list.result.tools.length > 0);
      } finally {
        s.close();
      }
    });
  });
}

/** The smoke test that failed: blank line, bad JSON, then a ping, all before any initialize. */
function beforeInitializeTests(name, args) {
  describe(`${name}: before initialize`, { timeout: 120_000 }, () => {
    it("answers a ping after a blank line and bad JSON, and says what to send for other requests", async () => {
      const s = rawSession(args);
      try {
        s.send(b(""));
        s.send(b("{bad json"));
        s.send(b('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
        const seen = await s.until(1, 60_000);
        assert.equal(seen.length, 2, JSON.stringify(seen));
        assert.equal(seen[0].error.code, -32700);
        assert.deepEqual(seen[1].result, {});
        s.send(b('{"jsonrpc":"2.0","id":2,"method":"tools/list"}'));
        const [early] = await s.until(2);
        assert.equal(early.error.code, -32600);
        assert.match(early.error.message, /send initialize, then the notifications\/initialized notification/);
        s.send(Buffer.from(JSON.stringify({ ...INIT, id: 3 })));
        await s.until(3);
        s.send(b('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
        s.send(b('{"jsonrpc":"2.0","id":4,"method":"tools/list"}'));
        const [list] = await s.until(4);
        assert.ok(list.result.tools.length > 0, JSON.stringify(list));
      } finally {
        s.close();
      }
    });
  });
}

beforeInitializeTests("engram mcp", jvmArgs(tempStore(), "mcp"));
beforeInitializeTests("engram proxy", jvmArgs(tempStore(), "proxy"));
lineClassTests("engram mcp", jvmArgs(tempStore(), "mcp"));
lineClassTests("engram proxy", jvmArgs(tempStore(), "proxy"));

describe("engram proxy: an upstream that writes stray lines and oversized answers", { timeout: 180_000 }, () => {
  it("skips the stray lines, keeps serving, and names the size of an answer too large to take", async () => {
    const store = tempStore();
    const noisy = fileURLToPath(new URL("./lib/noisy-upstream.mjs", import.meta.url));
    addUpstream(store, ["noisy", "--command", process.execPath, "--args", noisy, "--prefix", "nz"]);
    const proxy = await connectProxy(store);
    try {
      const tools = (await proxy.client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes("nz__echo") && tools.includes("nz__big"), tools.join(","));
      for (const text of ["one", "two", "three"]) {
        const r = await proxy.client.callTool({ name: "nz__echo", arguments: { text } });
        assert.equal(textOf(r), `echo: ${text}`);
      }
      const started = Date.now();
      const big = await proxy.client.callTool({ name: "nz__big", arguments: {} });
      assert.equal(big.isError, true, JSON.stringify(big).slice(0, 300));
      assert.match(textOf(big), /response was too large for the proxy: \d+ bytes in one message, the limit is 16777216/);
      assert.doesNotMatch(textOf(big), /exited|McpError|Exception|restarts/);
      assert.ok(Date.now() - started < 30_000, "answered without waiting for the timeout");
      const after = await proxy.client.callTool({ name: "nz__echo", arguments: { text: "after" } });
      assert.equal(textOf(after), "echo: after");
    } finally {
      await proxy.close();
    }
  });
});
