import { exposedName } from "../../../core/mcp/convert.ts";
import { NameClaims } from "../../../core/mcp/names.ts";
import { MCP_TEST, stdioServer, testManager } from "../../support/mcp_manager.ts";
import { join } from "node:path";
import { assert, assertEquals, assertMatch, tempDir, until } from "../../helpers.ts";

// Server "a" with tool "__x" and server "a_" with tool "_x" both map to mcp__a____x.
const NAME = exposedName("a", "__x");

Deno.test("the colliding names really collide", () => {
  assertEquals([NAME, exposedName("a_", "_x")], ["mcp__a____x", "mcp__a____x"]);
});

Deno.test("NameClaims: the server listed first owns a name whoever claims first; set() names who to tell", () => {
  const claims = new NameClaims(["first", "second"]);
  const told: string[] = [];
  claims.subscribe("first", () => told.push("first"));
  claims.subscribe("second", () => told.push("second"));
  assertEquals(claims.set("second", new Set(["n"])), []);
  assertEquals(claims.owner("n"), "second");
  assertEquals(claims.set("first", new Set(["n"])), ["second"]);
  assertEquals(claims.owner("n"), "first");
  assertEquals(claims.set("first", new Set()), ["second"]);
  assertEquals(claims.owner("n"), "second");
  assertEquals(told, []);
  claims.notify(["second"]);
  assertEquals(told, ["second"]);
});

for (const order of [["a", "a_"], ["a_", "a"]]) {
  Deno.test(
    `a colliding exposed name belongs to the server listed first (${
      order.join(", ")
    }), the later one connecting first`,
    MCP_TEST,
    async () => {
      const [winner, loser] = order;
      await using dir = await tempDir();
      const gate = join(dir.path, "open");
      const servers = {
        [winner]: stdioServer({}, [`tool=${winner === "a" ? "__x" : "_x"}`, `gate=${gate}`]),
        [loser]: stdioServer({}, [`tool=${loser === "a" ? "__x" : "_x"}`]),
      };
      await using t = await testManager(servers, {}, { start: false });
      const started = t.m.start();
      // The server listed first serves only once the later one is connected with its tools.
      await until(() => t.m.get(loser)!.status === "connected", 10_000, `${loser} connected`);
      assert(t.m.get(loser)!.tools.has(NAME), `${loser} holds the name while ${winner} is not connected`);
      await Deno.writeTextFile(gate, "");
      await started;
      const states = Object.fromEntries(t.m.states().map((s) => [s.name, s]));
      assertEquals([states[winner].status, states[loser].status], ["connected", "connected"]);
      assert(states[winner].toolNames.includes(NAME));
      assert(!states[loser].toolNames.includes(NAME));
      assertMatch(
        states[loser].warnings.join("\n"),
        new RegExp(`maps to ${NAME}, owned by server ${winner}`),
      );
      assertEquals(states[winner].warnings, []);
      const r = await t.call(NAME);
      assertMatch(String(r.output), new RegExp(`^${winner === "a" ? "__x" : "_x"} of \\d+$`));
      await t.m.get(winner)!.close();
      const back = Object.fromEntries(t.m.states().map((s) => [s.name, s]));
      assert(back[loser].toolNames.includes(NAME), "the loser gets the name once the owner is gone");
      assertEquals(back[loser].warnings, []);
    },
  );
}
