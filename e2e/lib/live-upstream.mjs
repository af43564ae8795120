// A small stdio MCP server for the proxy's live-upstream test: it adds a tool when asked (the SDK then
// sends notifications/tools/list_changed), serves a resource, a resource template and a prompt, and
// answers `echo_args` with the arguments it received, so the test sees what the proxy forwarded. It takes
// resource subscriptions: `subscriptions` lists the URIs subscribed to it, `touch_readme` sends
// notifications/resources/updated for its readme when someone subscribed to it.
// Usage: node live-upstream.mjs NAME
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const name = process.argv[2] ?? "live";
const server = new McpServer({ name: `live-${name}`, version: "1.0.0" },
  { capabilities: { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true }, prompts: { listChanged: true } } });

server.registerTool("hello", { description: `Says hello from ${name}`, inputSchema: { who: z.string().optional() } },
  async ({ who }) => ({ content: [{ type: "text", text: `hello ${who ?? "you"} from ${name}` }] }));

// the raw request's arguments, before any schema stripped unknown keys
let lastArguments = null;
const transport = new StdioServerTransport();
server.registerTool("echo_args", { description: "Returns the arguments it received", inputSchema: { text: z.string() } },
  async () => ({ content: [{ type: "text", text: JSON.stringify(lastArguments) }] }));

server.registerTool("dangerous_delete", { description: "Deletes everything (excluded by the test's exclude_tools)",
  inputSchema: {} }, async () => ({ content: [{ type: "text", text: "deleted" }] }));

let added = 0;
server.registerTool("add_tool", { description: "Adds a tool named added_N to this server", inputSchema: {} }, async () => {
  added++;
  const n = `added_${added}`;
  server.registerTool(n, { description: `A tool added mid-session (${n})`, inputSchema: {} },
    async () => ({ content: [{ type: "text", text: `${n} ran` }] }));
  return { content: [{ type: "text", text: `added ${n}` }] };
});

server.registerResource("readme", "live://notes/readme", { title: "Readme", mimeType: "text/plain" },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `the readme of ${name}` }] }));
server.registerResource("note", new ResourceTemplate("live://notes/{id}", { list: undefined }), { mimeType: "text/plain" },
  async (uri, { id }) => {
    if (id === "missing") throw new Error(`no note called ${id}`);
    return { contents: [{ uri: uri.href, mimeType: "text/plain", text: `note ${id} of ${name}` }] };
  });
server.registerPrompt("greet", { description: "Greets someone", argsSchema: { who: z.string() } },
  ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please greet ${who} (${name})` } }] }));

// a resource and a prompt added mid-session: the SDK sends resources/list_changed and prompts/list_changed
server.registerTool("add_note_and_prompt", { description: "Adds the resource live://notes/late and the prompt late",
  inputSchema: {} }, async () => {
  server.registerResource("late", "live://notes/late", { title: "Late", mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `the late note of ${name}` }] }));
  server.registerPrompt("late", { description: "A prompt added mid-session" },
    () => ({ messages: [{ role: "user", content: { type: "text", text: `late prompt (${name})` } }] }));
  return { content: [{ type: "text", text: "added" }] };
});

const subscribed = new Set();
server.server.setRequestHandler(SubscribeRequestSchema, async (request) => { subscribed.add(request.params.uri); return {}; });
server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => { subscribed.delete(request.params.uri); return {}; });
server.registerTool("subscriptions", { description: "Lists the resource URIs subscribed to", inputSchema: {} },
  async () => ({ content: [{ type: "text", text: JSON.stringify([...subscribed].sort()) }] }));
server.registerTool("touch_readme", { description: "Tells subscribers that the readme changed", inputSchema: {} }, async () => {
  const uri = "live://notes/readme";
  if (subscribed.has(uri)) await server.server.sendResourceUpdated({ uri });
  return { content: [{ type: "text", text: subscribed.has(uri) ? "notified" : "nobody subscribed" }] };
});

await server.connect(transport);
// watch requests as they arrive: the SDK validates tools/call arguments against the schema and drops unknown keys
const handle = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message?.method === "tools/call" && message.params?.name === "echo_args") lastArguments = message.params.arguments ?? {};
  handle(message, extra);
};
