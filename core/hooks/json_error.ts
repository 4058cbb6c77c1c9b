// Where JSON text stops being JSON: a small scanner that finds the offset of the first syntax error, so a bad
// settings file is reported as one line with its line number (the engine's message has neither reliably).

const WS = new Set([" ", "\t", "\n", "\r"]);

/** The offset of the first syntax error in `text` and what was expected, or undefined when it is valid JSON. */
export function jsonErrorAt(text: string): { offset: number; expected: string } | undefined {
  let i = 0;
  const fail = (expected: string): never => {
    throw { offset: i, expected };
  };
  const space = () => {
    while (i < text.length && WS.has(text[i])) i++;
  };
  const literal = () => {
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!m) fail("a value");
    i += m![0].length;
  };
  const string = () => {
    if (text[i] !== '"') fail("a string");
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("a closing quote");
      i++;
    }
    if (i >= text.length) fail("a closing quote");
    i++;
  };
  const list = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      space();
      if (text[i] === close) return void i++;
      if (text[i] !== ",") fail(`"," or "${close}"`);
      i++;
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") {
      list("}", () => {
        space();
        string();
        space();
        if (text[i] !== ":") fail('":"');
        i++;
        value();
      });
    } else if (c === "[") list("]", value);
    else if (c === '"') string();
    else literal();
  };
  try {
    value();
    space();
    if (i < text.length) fail("the end of the file");
    return undefined;
  } catch (err) {
    if (err instanceof Error) return { offset: i, expected: "less nesting" };
    return err as { offset: number; expected: string };
  }
}
