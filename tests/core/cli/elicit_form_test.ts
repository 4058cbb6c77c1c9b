import { elicitByQuestions } from "../../../core/cli/elicit_form.ts";
import { assertEquals } from "../../helpers.ts";

function scripted(answers: string[]) {
  const asked: string[] = [];
  const written: string[] = [];
  const elicit = elicitByQuestions((q) => {
    asked.push(q);
    return Promise.resolve(answers.shift() ?? "");
  }, { write: (t) => void written.push(t) });
  return { elicit, asked, written };
}

const schema = {
  type: "object",
  properties: {
    name: { type: "string", default: "Ada" },
    age: { type: "integer", description: "years" },
    ok: { type: "boolean" },
  },
};

Deno.test("elicitation in the REPL: Enter takes the default, numbers and booleans are converted", async () => {
  const { elicit, asked, written } = scripted(["", "42", "yes", "y"]);
  const r = await elicit({ server: "s", message: "Who are you?", schema });
  assertEquals(r, { action: "accept", content: { name: "Ada", age: 42, ok: true } });
  assertEquals(written, ["? MCP server s asks: Who are you?\n"]);
  assertEquals(asked, [
    '  name ["Ada"]: ',
    "  age (years): ",
    "  ok: ",
    "  send this answer? [y]es / [n]o: ",
  ]);
});

Deno.test("elicitation in the REPL: not confirming declines and sends nothing", async () => {
  const { elicit } = scripted(["Grace", "1", "no", "n"]);
  assertEquals(await elicit({ server: "s", message: "?", schema }), { action: "decline" });
});

Deno.test("elicitation in the REPL: an enum shows its choices and takes one by number or value; a wrong one asks again", async () => {
  const { elicit, asked, written } = scripted(["purple", "2", "", "y"]);
  const r = await elicit({
    server: "s",
    message: "Pick \x1b[31mred\x1b[0m",
    schema: {
      type: "object",
      properties: {
        color: { type: "string", enum: ["red", "green", "blue"], default: "red" },
        size: {
          type: "string",
          oneOf: [{ const: "s", title: "small" }, { const: "l", title: "large" }],
          default: "l",
        },
      },
    },
  });
  assertEquals(r, { action: "accept", content: { color: "green", size: "l" } });
  assertEquals(asked.slice(0, 3), [
    '  color one of 1) red, 2) green, 3) blue ["red"]: ',
    '  color one of 1) red, 2) green, 3) blue ["red"]: ',
    '  size one of 1) s (small), 2) l (large) ["l"]: ',
  ]);
  assertEquals(written, [
    "? MCP server s asks: Pick \\x1b[31mred\\x1b[0m\n",
    "  purple is not one of the choices\n",
  ]);
});
