// The graph viewer in a real browser: Debian's headless Chromium driven by playwright-core loads
// `engram viewer` against a seeded store. The graph renders nodes and edges (checked through the page's
// own state and its SVG), the layout fits the view, search highlights the right node, a memory's detail
// opens, a shortest path is drawn, PNG and SVG export work, and `engram serve` keeps /ui's data behind its
// token. Screenshots go to engram-cli/target/viewer-e2e/. The 10,000-memory zone is viewer-10k.test.mjs.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sleep, startServe } from "./lib/engram.mjs";
import { CHROMIUM, SHOTS, skip, seedStore, startViewer, openViewer, TOPICS } from "./lib/viewer.mjs";

// lexical search only (no model to load, nothing embedded in the background): the tests stay fast and
// deterministic on a loaded machine; what the viewer shows does not depend on the embedder
process.env.ENGRAM_EMBEDDER = "none";

describe("graph viewer in headless Chromium", { skip, timeout: 170_000 }, () => {
  let browser;
  const topics = TOPICS;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  });
  after(async () => { await browser?.close(); });

  const open = (url) => openViewer(browser, url);

  it("renders a seeded zone, highlights a search hit, draws a path and exports PNG and SVG", async () => {
    const store = seedStore(60, (i) => `${topics[i % 5]} note ${i}` + (i === 37 ? " zebracorn quirk" : ""));
    const viewer = await startViewer(store);
    try {
      const { page, errors } = await open(viewer.url);
      const counts = await page.evaluate(() => ({ nodes: engramViewer.nodeCount(), drawn: engramViewer.drawnNodes(),
        edges: engramViewer.edgeCount(), circles: document.querySelectorAll("svg g.node circle").length,
        lines: document.querySelectorAll("svg line.edge").length, total: engramViewer.state.total }));
      assert.equal(counts.nodes, 60);
      assert.equal(counts.total, 60);
      assert.equal(counts.circles, 60);
      assert.equal(counts.lines, 59 + 58, JSON.stringify(counts)); // the chain, and 58 links to the 2 hubs
      assert.equal(counts.edges, counts.lines);
      // the layout cools and the view zooms to fit every memory
      await page.waitForFunction(() => engramViewer.state.settled, null, { timeout: 60_000 });
      const inView = await page.evaluate(() => {
        const box = document.querySelector("#graph").getBoundingClientRect();
        return [...document.querySelectorAll("g.node circle")].filter((c) => {
          const r = c.getBoundingClientRect();
          return r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
        }).length;
      });
      assert.equal(inView, 60, "every node is inside the view after fitting");
      // nodes were laid out: positions spread over the canvas
      const spread = await page.evaluate(() => {
        const xs = [...engramViewer.state.nodes.values()].map((n) => n.x);
        return Math.max(...xs) - Math.min(...xs);
      });
      assert.ok(spread > 50, `nodes were not laid out (x spread ${spread})`);
      await page.screenshot({ path: join(SHOTS, "viewer-graph.png") });

      await page.fill("#q", "zebracorn");
      await page.click("#go");
      await page.waitForFunction(() => engramViewer.highlighted().length > 0, null, { timeout: 20_000 });
      assert.deepEqual(await page.evaluate(() => engramViewer.highlighted()), ["note-37"]);
      await page.screenshot({ path: join(SHOTS, "viewer-search.png") });
      // a tool result is heard only from the host embedding the page: a top-level page (or a window that opened
      // it) posting one runs no search
      await page.evaluate(() => window.postMessage({ method: "ui/notifications/tool-result",
        params: { structuredContent: { query: "note 5" } } }, "*"));
      await sleep(700);
      assert.deepEqual(await page.evaluate(() => engramViewer.highlighted()), ["note-37"]);

      await page.locator("g.node[data-key='note-37']").dispatchEvent("click");
      await page.waitForFunction(() => document.querySelector("#side h3")?.textContent === "note-37", null, { timeout: 20_000 });
      assert.match(await page.textContent("#side pre"), /zebracorn quirk/);

      await page.fill("#from", "note-3");
      await page.fill("#to", "note-37");
      await page.click("#path");
      await page.waitForFunction(() => engramViewer.state.path.length > 0, null, { timeout: 20_000 });
      // both reference the hub note-0: the engine's breadth-first path is two hops through it
      assert.deepEqual(await page.evaluate(() => engramViewer.onPath()), ["note-3", "note-0", "note-37"]);
      assert.equal(await page.evaluate(() => document.querySelectorAll("line.edge.on-path").length), 2);
      await page.screenshot({ path: join(SHOTS, "viewer-path.png") });

      const svg = await page.evaluate(() => engramViewer.svgText());
      assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      assert.equal((svg.match(/<circle/g) || []).length, 60);
      writeFileSync(join(SHOTS, "viewer-export.svg"), svg);
      const png = await page.evaluate(() => engramViewer.pngDataUrl());
      assert.match(png, /^data:image\/png;base64,/);
      const bytes = Buffer.from(png.slice(png.indexOf(",") + 1), "base64");
      assert.equal(bytes.subarray(1, 4).toString("latin1"), "PNG");
      assert.ok(bytes.length > 5000, `PNG export is ${bytes.length} bytes`);
      writeFileSync(join(SHOTS, "viewer-export.png"), bytes);
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await viewer.stop();
    }
  });

  it("serves /ui under `engram serve`: the page loads, its data needs the token from the URL fragment", async () => {
    const store = seedStore(5, (i) => `${topics[i]} note ${i}`);
    const token = "viewer-e2e-token-0123456789";
    const server = await startServe(store, { tokens: [token] });
    try {
      const ui = server.url.replace(/\/mcp$/, "/ui/");
      const anonymous = await fetch(ui + "api/graph");
      assert.equal(anonymous.status, 401);
      const { page, errors } = await open(ui + "#token=" + token);
      assert.equal(await page.evaluate(() => engramViewer.nodeCount()), 5);
      assert.ok(!(await page.evaluate(() => location.hash)).includes(token), "the token is dropped from the address bar");
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await server.stop();
    }
  });
});
