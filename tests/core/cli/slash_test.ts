import { completer, completionWords, helpText, slashTable } from "../../../core/cli/slash.ts";
import { assert, assertEquals } from "../../helpers.ts";

Deno.test("/help and Tab completion list the same commands, from one table", () => {
  const extra = [{ name: "/mcp", subcommands: ["status", "reload"], help: "MCP", run: () => {} }];
  const table = slashTable(extra);
  const help = helpText(table);
  const helpNames = help.split("\n").map((l) => l.split(/\s+/)[0]);
  const completionNames = completionWords(table).filter((w) => !w.includes(" "));
  assertEquals(helpNames, completionNames);
  for (const name of ["/help", "/clear", "/tools", "/model", "/approval", "/mcp", "/exit"]) {
    assert(helpNames.includes(name), name);
  }
  assert(help.includes("/mcp [status|reload]"));
  const [hits] = completer(table)("/mcp r");
  assertEquals(hits, ["/mcp reload"]);
  const [all] = completer(table)("/");
  assertEquals(all, completionWords(table));
  assertEquals(completer(table)("hello")[0], []);
});
