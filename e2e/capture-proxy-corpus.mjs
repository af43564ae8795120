// Captures the proxy benchmark's fixed corpus (engram-bench/src/main/resources/proxy-corpus/): real
// responses of the upstreams the end-to-end test runs, called with the TypeScript SDK client.
// server-filesystem: read_text_file of repository files, of the end-to-end fixtures and of a colored
// git log, and directory_tree of a source folder (a large JSON array); server-everything: its
// text-only tools. Each response's text is written as one file, and corpus.tsv names its source.
// Run from the repository root: node e2e/capture-proxy-corpus.mjs [commit-for-the-git-log]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EVERYTHING, FILESYSTEM, writeFixtures } from "./lib/proxy.mjs";

const repo = resolve(".");
const out = join(repo, "engram-bench/src/main/resources/proxy-corpus");
const commit = process.argv[2] ?? "HEAD";
const scratch = mkdtempSync(join(tmpdir(), "engram-proxy-corpus-"));
writeFixtures(scratch);
writeFileSync(join(scratch, "git-log.ansi.txt"), execFileSync("git",
  ["-c", "color.ui=always", "log", "--stat", "--graph", "--decorate=short", "-n", "40", commit], { encoding: "utf8" }));

async function connect(args) {
  const client = new Client({ name: "engram-corpus-capture", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "ignore",
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/home/user" } }));  // a neutral environment: get-env prints it
  return client;
}

function textOnly(result) {
  if (result.isError || !result.content.every((c) => c.type === "text")) return null;
  return result.content.map((c) => c.text).join("\n\n");
}

const rows = [];
function save(name, source, text) {
  if (text === null) return;
  writeFileSync(join(out, name), text);
  rows.push(`${name}\t${source}`);
}

mkdirSync(out, { recursive: true });
const fs = await connect([FILESYSTEM, repo, scratch]);
for (const file of ["docs/architecture.md", "docs/proxy.md", "docs/tools.md", "README.md", "e2e/package-lock.json"]) {
  const r = await fs.callTool({ name: "read_text_file", arguments: { path: join(repo, file) } });
  save(file.replace(/^.*\//, ""), `server-filesystem read_text_file ${file} at ${commit}`, textOnly(r));
}
for (const file of ["guide.md", "items.json", "nested.json", "build.log", "notes.txt", "runbook.txt", "small.txt",
  "git-log.ansi.txt"]) {
  const r = await fs.callTool({ name: "read_text_file", arguments: { path: join(scratch, file) } });
  const what = file === "git-log.ansi.txt" ? `git -c color.ui=always log --stat --graph -n 40 ${commit}`
    : "end-to-end fixture (e2e/lib/proxy.mjs writeFixtures)";
  save(file, `server-filesystem read_text_file of ${what}`, textOnly(r));
}
const tree = await fs.callTool({ name: "directory_tree",
  arguments: { path: join(repo, "engram-proxy/src/main/java/dev/engram/proxy") } });
save("directory-tree.json", `server-filesystem directory_tree engram-proxy/src/main/java/dev/engram/proxy at ${commit}`,
  textOnly(tree));
await fs.close();

const ev = await connect([EVERYTHING, "stdio"]);
for (const [tool, args] of [["echo", { message: "hello from the proxy benchmark" }], ["get-sum", { a: 17, b: 25 }],
  ["get-env", {}], ["get-structured-content", { location: "New York" }],
  ["get-annotated-message", { messageType: "success", includeImage: false }]]) {
  save(`everything-${tool}.txt`, `server-everything ${tool} ${JSON.stringify(args)}`,
    textOnly(await ev.callTool({ name: tool, arguments: args })));
}
await ev.close();
writeFileSync(join(out, "corpus.tsv"), rows.join("\n") + "\n");
console.log(rows.join("\n"));
