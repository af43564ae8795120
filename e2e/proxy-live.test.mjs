// `engram proxy` following its upstreams and its configuration while it runs, against a small live
// upstream (lib/live-upstream.mjs, on the TypeScript SDK): a tool added mid-session reaches the agent
// with notifications/tools/list_changed; the upstream's resources, resource template and prompt are
// proxied under its prefix; proxy.json's description_override, exclude_tools and advertise_context_query
// shape the list; resource subscriptions reach the upstream and its updates come back under the prefix; and
// proxy.json edited while the proxy runs is applied (valid) or refused (invalid).
import assert from "node:assert/strict";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { pollUntil, runCli, uniqueWord, tempStore } from "./lib/engram.mjs";
import { addUpstream, connectProxy } from "./lib/proxy.mjs";
import { textOf } from "./lib/tools.mjs";

const LIVE = join(dirname(fileURLToPath(import.meta.url)), "lib/live-upstream.mjs");

describe("engram proxy with live upstreams", { timeout: 150_000 }, () => {
  const store = tempStore();
  const configFile = join(store, "proxy.json");
  const word = uniqueWord();
  const notified = { tools: 0, resources: 0, prompts: 0 };
  const updated = [];
  let proxy;
  let client;

  /** Edits proxy.json as an editor saving by rename does: a new file moved over the old one. */
  const editConfig = (change) => {
    const config = JSON.parse(readFileSync(configFile, "utf8"));
    change(config);
    writeFileSync(configFile + ".tmp", JSON.stringify(config, null, 2));
    renameSync(configFile + ".tmp", configFile);
  };
  const toolNames = async () => (await client.listTools()).tools.map((t) => t.name);
  const waitForTools = async (probe, what) => {
    const ok = await pollUntil(async () => probe(await toolNames()), { timeoutMs: 30_000, intervalMs: 200 });
    assert.ok(ok, `${what}; tools now: ${(await toolNames()).join(", ")}\nstderr:\n${proxy.stderr}`);
  };

  before(async () => {
    const remembered = runCli(store, ["remember", `The ${word} deploy checklist lives in the release runbook.`]);
    assert.equal(remembered.status, 0, remembered.stderr);
    addUpstream(store, ["live", "--command", "node", "--args", `${LIVE} one`, "--prefix", "lv",
      "--override", "hello:description_override=Greets whoever you name, from the live server"]);
    editConfig((c) => {
      c.advertise_context_query = true;
      c.upstreams[0].exclude_tools = ["dangerous_*"];
    });
    // the first search opens the store (and loads the embedder) in the proxy: on a loaded machine that can
    // take longer than the 3 s surfacing budget, which would skip surfacing instead of testing _context_query
    proxy = await connectProxy(store, { ENGRAM_PROXY_ADVERTISE_ADMIN: "true", ENGRAM_PROXY_SURFACING__TIMEOUT_SECONDS: "60" });
    client = proxy.client;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { notified.tools++; });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { notified.resources++; });
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => { notified.prompts++; });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { updated.push(n.params.uri); });
    // on a loaded machine the upstream may finish connecting after the proxy's start: it is listed then
    await waitForTools((names) => names.includes("lv__hello"), "the live upstream never connected");
  });
  after(async () => {
    await proxy?.close();
  });

  it("lists the description override, leaves excluded tools out and advertises _context_query", async () => {
    const { tools } = await client.listTools();
    const hello = tools.find((t) => t.name === "lv__hello");
    assert.ok(hello, `lv__hello missing from ${tools.map((t) => t.name).join(", ")}`);
    assert.equal(hello.description, "Greets whoever you name, from the live server");
    assert.ok(!tools.some((t) => t.name === "lv__dangerous_delete"), "exclude_tools dangerous_* hides it");
    const echo = tools.find((t) => t.name === "lv__echo_args");
    assert.equal(echo.inputSchema.properties._context_query.type, "string");
    assert.ok(!(echo.inputSchema.required ?? []).includes("_context_query"), "it is optional");
    assert.ok(!tools.find((t) => t.name === "stm_proxy_read_more").inputSchema.properties?._context_query,
      "the proxy's own tools do not get it");
  });

  it("describe_tool gives the override as the description and withholds the text it replaced", async () => {
    const page = await client.callTool({ name: "stm_proxy_describe_tool", arguments: { name: "lv__hello" } });
    assert.equal(JSON.parse(textOf(page)).text, "Greets whoever you name, from the live server");
    const withheld = await client.callTool({ name: "stm_proxy_describe_tool",
      arguments: { name: "lv__hello", part: "upstream_description" } });
    assert.ok(withheld.isError, textOf(withheld));
    assert.match(textOf(withheld), /recover_upstream_description/);
    assert.ok(!textOf(withheld).includes("Says hello from one"), "the refusal never quotes the withheld text");
  });

  it("strips _context_query before the upstream call and surfaces memories for it", async () => {
    const r = await client.callTool({ name: "lv__echo_args",
      arguments: { text: "short", _context_query: `${word} deploy checklist` } });
    assert.ok(!r.isError, textOf(r));
    const text = textOf(r);
    const forwarded = JSON.parse(text.split("\n")[0]);
    assert.deepEqual(forwarded, { text: "short" }, "the upstream never sees _context_query");
    assert.match(text, /<surfaced-memories>/, "a small result still gets memories when the agent asked");
    assert.ok(text.includes(`${word} deploy checklist`), text);
  });

  it("a tool the upstream adds mid-session is listed, announced with list_changed, and callable", async () => {
    const before = notified.tools;
    const r = await client.callTool({ name: "lv__add_tool", arguments: {} });
    assert.equal(textOf(r), "added added_1");
    await waitForTools((names) => names.includes("lv__added_1"), "lv__added_1 was not listed");
    assert.ok(await pollUntil(() => notified.tools > before, { timeoutMs: 10_000 }), "the client got tools/list_changed");
    const ran = await client.callTool({ name: "lv__added_1", arguments: {} });
    assert.equal(textOf(ran), "added_1 ran");
  });

  it("proxies the upstream's resources and template under the prefix, with its errors", async () => {
    const { resources } = await client.listResources();
    const readme = resources.find((r) => r.uri === "lv+live://notes/readme");
    assert.ok(readme, `lv+live://notes/readme missing from ${JSON.stringify(resources)}`);
    assert.equal(readme.title, "[live] Readme");
    const read = await client.readResource({ uri: "lv+live://notes/readme" });
    assert.deepEqual(read.contents, [{ uri: "lv+live://notes/readme", mimeType: "text/plain", text: "the readme of one" }]);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(resourceTemplates.some((t) => t.uriTemplate === "lv+live://notes/{id}"), JSON.stringify(resourceTemplates));
    const note = await client.readResource({ uri: "lv+live://notes/42" });
    assert.equal(note.contents[0].text, "note 42 of one");
    assert.equal(note.contents[0].uri, "lv+live://notes/42");
    await assert.rejects(client.readResource({ uri: "lv+live://notes/missing" }), /no note called missing/);
    // no listed resource or template has that URI: the SDK server answers resource-not-found before the proxy is asked
    await assert.rejects(client.readResource({ uri: "zz+live://notes/readme" }), /-32002|not found/i);
  });

  it("forwards resource subscriptions to the upstream and passes its updates back under the prefix", async () => {
    assert.equal(proxy.client.getServerCapabilities().resources?.subscribe, true, "the proxy announces subscriptions");
    const upstreamSubscriptions = async () => JSON.parse(textOf(await client.callTool({ name: "lv__subscriptions", arguments: {} })));
    await client.subscribeResource({ uri: "lv+live://notes/readme" });
    assert.ok(await pollUntil(async () => (await upstreamSubscriptions()).includes("live://notes/readme"), { timeoutMs: 10_000 }),
      `the upstream was not subscribed to its own URI; stderr:\n${proxy.stderr}`);
    assert.equal(textOf(await client.callTool({ name: "lv__touch_readme", arguments: {} })), "notified");
    assert.ok(await pollUntil(() => updated.includes("lv+live://notes/readme"), { timeoutMs: 10_000 }),
      `no notifications/resources/updated under the proxied URI: ${JSON.stringify(updated)}`);
    assert.ok(!updated.includes("live://notes/readme"), "never under the upstream's own URI");

    await client.unsubscribeResource({ uri: "lv+live://notes/readme" });
    assert.ok(await pollUntil(async () => (await upstreamSubscriptions()).length === 0, { timeoutMs: 10_000 }),
      "the upstream was not unsubscribed");
    const count = updated.length;
    assert.equal(textOf(await client.callTool({ name: "lv__touch_readme", arguments: {} })), "nobody subscribed");
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(updated.length, count, "no update after unsubscribing");
  });

  it("passes an upstream's resources/list_changed and prompts/list_changed on, with the new entries under the prefix", async () => {
    const before = { ...notified };
    assert.equal(textOf(await client.callTool({ name: "lv__add_note_and_prompt", arguments: {} })), "added");
    assert.ok(await pollUntil(async () => (await client.listResources()).resources.some((r) => r.uri === "lv+live://notes/late"),
      { timeoutMs: 15_000, intervalMs: 200 }), "the new resource was not listed under the prefix");
    assert.ok(await pollUntil(async () => (await client.listPrompts()).prompts.some((p) => p.name === "lv__late"),
      { timeoutMs: 15_000, intervalMs: 200 }), "the new prompt was not listed under the prefix");
    assert.ok(await pollUntil(() => notified.resources > before.resources && notified.prompts > before.prompts, { timeoutMs: 10_000 }),
      `the client was not told: ${JSON.stringify(notified)} after ${JSON.stringify(before)}`);
    const read = await client.readResource({ uri: "lv+live://notes/late" });
    assert.equal(read.contents[0].text, "the late note of one");
  });

  it("proxies the upstream's prompt under the prefix", async () => {
    const { prompts } = await client.listPrompts();
    assert.ok(prompts.some((p) => p.name === "lv__greet"), JSON.stringify(prompts));
    const p = await client.getPrompt({ name: "lv__greet", arguments: { who: "ann" } });
    assert.equal(p.messages[0].content.text, "Please greet ann (one)");
  });

  it("applies a valid proxy.json edit: a new upstream starts, the running one is not restarted", async () => {
    const before = notified.tools;
    editConfig((c) => {
      c.upstreams.push({ ...c.upstreams[0], name: "live2", prefix: "l2", args: [LIVE, "two"], exclude_tools: [] });
    });
    await waitForTools((names) => names.includes("l2__hello") && names.includes("l2__dangerous_delete"), "live2's tools did not appear");
    assert.ok(notified.tools > before, "the client was told");
    // lv kept its process: a restarted server would have forgotten the tool it added
    assert.ok((await toolNames()).includes("lv__added_1"), "lv was restarted");
    assert.equal(textOf(await client.callTool({ name: "l2__hello", arguments: { who: "bo" } })), "hello bo from two");
    assert.match(proxy.stderr.toString(), /proxy\.json reloaded: applied: added live2/);
  });

  it("refuses an invalid proxy.json edit with a clear message and keeps the running configuration", async () => {
    writeFileSync(configFile + ".tmp", '{"upstreams": [{"name": "live", "prefix": "lv", "command": "node", "max_result_chars": "big"}]}');
    renameSync(configFile + ".tmp", configFile);
    const said = await pollUntil(() => /was not applied: .*max_result_chars.*must be an integer/.test(proxy.stderr.toString()),
      { timeoutMs: 15_000, intervalMs: 200 });
    assert.ok(said, `no refusal on stderr:\n${proxy.stderr}`);
    assert.match(proxy.stderr.toString(), /keeps running with the previous configuration/);
    const names = await toolNames();
    assert.ok(names.includes("l2__hello") && names.includes("lv__added_1"), names.join(", "));
    const health = await client.callTool({ name: "stm_admin", arguments: { action: "proxy_health" } });
    assert.match(textOf(health), /Last proxy\.json reload .*refused: .*max_result_chars/);
  });

  it("applies the next valid edit: an upstream removed, another's settings changed in place", async () => {
    editConfig((c) => {
      // the refused text is what the file holds now: start again from a valid one
      c.upstreams = [{ name: "live", prefix: "lv", transport: "stdio", command: "node", args: [LIVE, "one"], env: [],
        tools: { hello: { description_override: "Says hello (edited)" } }, exclude_tools: ["dangerous_*"] }];
      c.advertise_context_query = false;
    });
    await waitForTools((names) => !names.includes("l2__hello"), "live2's tools were not removed");
    const { tools } = await client.listTools();
    assert.equal(tools.find((t) => t.name === "lv__hello").description, "Says hello (edited)");
    assert.equal(tools.find((t) => t.name === "lv__echo_args").inputSchema.properties._context_query, undefined);
    assert.ok(tools.some((t) => t.name === "lv__added_1"), "lv kept running: only its settings changed");
  });
});
