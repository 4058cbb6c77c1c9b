import { completionWords, helpText, slashCompletion, slashTable } from "../../../core/cli/slash.ts";
import { assert, assertEquals } from "../../helpers.ts";

Deno.test("/help and Tab completion list the same commands, from one table", () => {
  const extra = [{ name: "/mcp", subcommands: ["status", "reload"], help: "MCP", run: () => {} }];
  const table = slashTable(extra);
  const help = helpText(table);
  const helpNames = help.split("\n").map((l) => l.trim().split(/\s+/)[0]).filter((w) => w.startsWith("/"));
  const completionNames = completionWords(table).filter((w) => !w.includes(" "));
  assertEquals(helpNames, completionNames);
  for (const name of ["/help", "/clear", "/tools", "/model", "/approval", "/mcp", "/exit"]) {
    assert(helpNames.includes(name), name);
  }
  assert(help.includes("/mcp [status|reload]"));
  assert(/\nkeys\n {2}Enter {2,}send/.test(help), "a keys section");
  assertEquals(slashCompletion(table, "/mcp r"), { start: 5, items: ["reload"] });
  assertEquals(slashCompletion(table, "/")?.items, completionNames);
  assertEquals(slashCompletion(table, "/he"), { start: 0, items: ["/help"] });
  assertEquals(slashCompletion(table, "hello"), undefined);
});

Deno.test("/model completes the model ids it is given", () => {
  const table = slashTable();
  const models = (cmd: string) => (cmd === "/model" ? ["gpt-4.1", "gpt-4.1-mini", "o3"] : []);
  assertEquals(slashCompletion(table, "/model gpt", models), {
    start: 7,
    items: ["gpt-4.1", "gpt-4.1-mini"],
  });
  assertEquals(slashCompletion(table, "/approval p", models), { start: 10, items: ["plan"] });
});
