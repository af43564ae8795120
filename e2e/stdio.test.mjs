// `engram mcp` over stdio, driven by the TypeScript SDK client: every tool, both resources, bad input.
import { after, before, describe } from "node:test";
import { connectStdio, tempStore } from "./lib/engram.mjs";
import { badInputTests, validCallTests } from "./lib/tools.mjs";

describe("engram mcp over stdio", { timeout: 150_000 }, () => {
  let server;
  before(async () => {
    server = await connectStdio(tempStore(), "stdio");
  });
  after(async () => {
    await server?.close();
  });
  const getClient = () => server.client;
  validCallTests(getClient);
  badInputTests(getClient);
});
