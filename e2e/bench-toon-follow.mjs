// Side-by-side latency of the toon profile in a project whose .toon-memory/memory/data.toon holds N entries (the
// followed-file path: every write rewrites data.toon), over stdio with the TypeScript SDK, as an agent calls it.
// Not part of `npm test`. Usage, old and new jar alternated:
//   node e2e/bench-toon-follow.mjs JAR N ROUNDS     e.g. node e2e/bench-toon-follow.mjs engram-cli/target/engram.jar 5000 60
// Prints remember and recall p50/p95 (ms) over ROUNDS-10 remember+recall pairs (the first 10 are warm-up).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, mkdirSync, writeFileSync } from "fs";
import { join } from "path";
import { tmpdir } from "os";
const [jar, n, rounds] = [process.argv[2], +process.argv[3], +process.argv[4]];
if (!jar || !(Number.isInteger(n) && n >= 0) || !(Number.isInteger(rounds) && rounds > 10)) {
  console.error("usage: node e2e/bench-toon-follow.mjs JAR N ROUNDS (N entries in data.toon, ROUNDS > 10 remember+recall pairs)");
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "tl-"));
const proj = join(dir, "proj"); mkdirSync(join(proj, ".toon-memory", "memory"), { recursive: true });
const words = ["cache", "queue", "auth", "deploy", "index", "schema", "retry", "pool", "token", "build"];
let lines = [];
for (let i = 0; i < n; i++) lines.push(`  ${(0x10000000 + i).toString(16)}|knowledge|entry-${i}|The ${words[i % 10]} service ${i} uses ${words[(i * 7) % 10]} with limit ${i % 97}|||2026-11-01||0||0.70|1.0||0||agent|active|||`);
writeFileSync(join(proj, ".toon-memory", "memory", "data.toon"), `version: 1\nentries[${n}|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence|lastAccessed|priority|path_scope|origin|status|supersededOn|importance|evidence}:\n` + lines.join("\n") + "\n");
for (const d of ["home", "xdg", "eh"]) mkdirSync(join(dir, d));
const t = new StdioClientTransport({ command: "java", args: ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar, "mcp", "--profile", "toon"], cwd: proj,
  env: { ...process.env, ENGRAM_EMBEDDER: "none", HOME: join(dir, "home"), XDG_DATA_HOME: join(dir, "xdg"), ENGRAM_HOME: join(dir, "eh") }, stderr: "ignore" });
const c = new Client({ name: "lat", version: "1" }); await c.connect(t);
await c.callTool({ name: "memory_stats", arguments: {} });
const rem = [], rec = [];
for (let i = 0; i < rounds; i++) {
  let s = performance.now();
  await c.callTool({ name: "memory_remember", arguments: { category: "pattern", key: `new-${i}`, content: `The ${words[i % 10]} worker ${i} retries with backoff ${i}` } });
  rem.push(performance.now() - s);
  s = performance.now();
  await c.callTool({ name: "memory_recall", arguments: { query: `${words[i % 10]} service` } });
  rec.push(performance.now() - s);
}
const p = (a, q) => a.slice().sort((x, y) => x - y)[Math.floor(q * (a.length - 1))].toFixed(1);
const w = rem.slice(10), r = rec.slice(10);
console.log(JSON.stringify({ jar, n, remember_p50: p(w, .5), remember_p95: p(w, .95), recall_p50: p(r, .5) }));
await c.close();
