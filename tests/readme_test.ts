import { join } from "node:path";
import { parseConfig } from "../core/mod.ts";
import { assert, assertEquals, ROOT } from "./helpers.ts";

const README = await Deno.readTextFile(join(ROOT, "README.md"));

Deno.test("the README's example config.json is valid", () => {
  const block = /## Configuration[\s\S]*?```json\n([\s\S]*?)```/.exec(README);
  assert(block, "a json block under Configuration");
  const config = parseConfig(block[1], "README.md");
  assertEquals(Object.keys(config.mcp_servers ?? {}), ["everything", "docs"]);
});

Deno.test("the README shows the commands that run navi and the tests", () => {
  assert(README.includes("```sh\ndeno task navi\n```"));
  assert(README.includes("```sh\ndeno task test\n```"));
  const tasks = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))).tasks;
  for (const t of ["navi", "test", "bundle", "compile", "bench", "check", "conformance", "embed"]) {
    assert(t in tasks, t);
  }
});
