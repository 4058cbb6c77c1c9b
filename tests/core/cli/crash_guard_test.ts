import { errorSource, installCrashGuard } from "../../../core/cli/crash_guard.ts";
import { assertEquals, assertMatch, until } from "../../helpers.ts";

Deno.test("a stray rejection or a throwing callback is logged with its source and navi goes on", async () => {
  const lines: string[] = [];
  const logged: string[] = [];
  const remove = installCrashGuard({ line: (t) => lines.push(t), log: (t) => logged.push(t) });
  try {
    Promise.reject(new Error("rejected in a callback"));
    setTimeout(() => {
      throw new Error("thrown in a timer");
    }, 0);
    await until(() => lines.length === 2, 2000, "two reports");
  } finally {
    remove();
  }
  assertMatch(
    lines[0],
    /^navi: unhandled rejection from cli\/crash_guard_test\.ts: rejected in a callback \(logged in logs\/errors\.log\)$/,
  );
  assertMatch(lines[1], /^navi: uncaught error from cli\/crash_guard_test\.ts: thrown in a timer /);
  assertMatch(logged[0], /^unhandled rejection from .*: Error: rejected in a callback\n\s+at /);
});

Deno.test("the source of an error from an npm package is the package", () => {
  const err = new Error("x");
  err.stack =
    "Error: x\n    at Client._onresponse (file:///p/node_modules/.deno/@modelcontextprotocol+sdk@1.32.2/" +
    "node_modules/@modelcontextprotocol/sdk/dist/esm/shared/protocol.js:1:2)";
  assertEquals(errorSource(err), "npm package @modelcontextprotocol/sdk");
  assertEquals(errorSource("just a string"), "unknown source");
});
