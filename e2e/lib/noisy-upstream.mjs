// A minimal MCP server over stdio that misbehaves the way real ones do: it writes stray lines to stdout
// (log text, blank lines, arrays, bare strings, bad ids, deep nesting) around every answer, puts the id
// last as the TypeScript SDK does, and its tool `big` answers with more bytes than a client takes.
import { createInterface } from "node:readline";

const STRAY = ["", "   ", "server log: listening", "[1,2]", '"str"', '{"jsonrpc":"2.0","id":null}',
  '{"id":{"x":1},"result":{}}', `{"a":${"[".repeat(900)}${"]".repeat(900)}}`, '{"jsonrpc":"2.0","method":5}',
  '{"jsonrpc":"2.0","id":999,"error":"x"}'];
const answer = (id, result) => process.stdout.write(JSON.stringify({ result, jsonrpc: "2.0", id }) + "\n");
const stray = () => { for (const s of STRAY) process.stdout.write(s + "\n"); };

createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  stray();
  if (msg.id === undefined) return;
  switch (msg.method) {
    case "initialize":
      return answer(msg.id, { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: "noisy", version: "1.0.0" } });
    case "tools/list":
      return answer(msg.id, { tools: [
        { name: "echo", description: "Echoes text.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
        { name: "big", description: "Answers with about 17 MiB.", inputSchema: { type: "object", properties: {} } }] });
    case "tools/call":
      if (msg.params.name === "big") return answer(msg.id, { content: [{ type: "text", text: "x".repeat(17 << 20) }] });
      return answer(msg.id, { content: [{ type: "text", text: `echo: ${msg.params.arguments?.text}` }] });
    default:
      return answer(msg.id, {});
  }
});
