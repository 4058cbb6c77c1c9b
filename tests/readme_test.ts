// The README is the front door and docs/ holds the reference: the example configs are valid, the README shows
// how to run navi and its tests, and the README and docs/ link to each other without dead links.
import { dirname, join, normalize } from "node:path";
import { parseConfig } from "../core/mod.ts";
import { assert, assertEquals, assertThrows, ROOT } from "./helpers.ts";

const README = await Deno.readTextFile(join(ROOT, "README.md"));

/** The markdown pages under docs/, as repository paths (`docs/cli.md`), sorted. */
function docPages(root: string): string[] {
  return [...Deno.readDirSync(join(root, "docs"))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`)
    .sort();
}

/** The ```json blocks of a markdown text. */
function jsonBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** A markdown text without its fenced code blocks (their lines are not links or headings). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

/** The anchors of a text's headings, as GitHub makes them: lower case, punctuation dropped, spaces to `-`. */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6} +(.+?) *$/gm)) {
    out.add(m[1].toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-"));
  }
  return out;
}

/** A local link: the repository path it points at and its `#anchor` ("" for none). */
export interface Link {
  path: string;
  anchor: string;
}

/**
 * Local links of a markdown text, `[text](target)` outside code blocks and without a URL scheme, resolved
 * against the directory of `from` (a repository path); a bare `#anchor` points into `from` itself.
 */
export function localLinks(markdown: string, from: string): Link[] {
  const out: Link[] = [];
  for (const m of prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(m[1])) continue;
    const [target, anchor = ""] = m[1].split("#");
    out.push({ path: target ? normalize(join(dirname(from), target)) : from, anchor });
  }
  return out;
}

/**
 * What is wrong with the links between the README and docs/: pages the README does not link, and links from
 * the README or a page to a file that does not exist or to an anchor its headings do not make. `read` gives a
 * repository file's text, undefined when there is no such file.
 */
export function linkProblems(
  readme: string,
  pages: Record<string, string>,
  read: (path: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  const fromReadme = new Set(localLinks(readme, "README.md").map((l) => l.path));
  for (const page of Object.keys(pages)) {
    if (!fromReadme.has(page)) problems.push(`README.md does not link ${page}`);
  }
  const sources: [string, string][] = [["README.md", readme], ...Object.entries(pages)];
  for (const [from, text] of sources) {
    for (const { path, anchor } of localLinks(text, from)) {
      const target = path === from ? text : read(path);
      if (target === undefined) problems.push(`${from} links ${path}, which does not exist`);
      else if (anchor && path.endsWith(".md") && !anchors(target).has(anchor)) {
        problems.push(`${from} links ${path}#${anchor}, a heading ${path} does not have`);
      }
    }
  }
  return problems;
}

function readRepoFile(path: string): string | undefined {
  try {
    return Deno.statSync(join(ROOT, path)).isFile ? Deno.readTextFileSync(join(ROOT, path)) : undefined;
  } catch {
    return undefined;
  }
}

Deno.test("the README's example config.json is valid", () => {
  const block = /## Configuration[\s\S]*?```json\n([\s\S]*?)```/.exec(README);
  assert(block, "a json block under Configuration");
  const config = parseConfig(block[1], "README.md");
  assertEquals(Object.keys(config.mcp_servers ?? {}), ["everything", "docs"]);
});

Deno.test("every json example in docs/ is a valid config.json", () => {
  const pages = docPages(ROOT);
  const blocks = pages.flatMap((page) =>
    jsonBlocks(Deno.readTextFileSync(join(ROOT, page))).map((text) => ({ page, text }))
  );
  assert(blocks.some((b) => b.page === "docs/configuration.md"), "docs/configuration.md has an example");
  for (const { page, text } of blocks) parseConfig(text, page);
  // The check can fail: a block with an unknown key is refused.
  assertThrows(() => parseConfig(jsonBlocks('```json\n{ "modle": "x" }\n```\n')[0], "x.md"), /modle/);
});

Deno.test("the README shows the commands that run navi and the tests", () => {
  assert(README.includes("```sh\ndeno task navi\n```"));
  assert(README.includes("```sh\ndeno task test\n```"));
  const tasks = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))).tasks;
  for (const t of ["navi", "test", "bundle", "compile", "bench", "check", "conformance", "embed"]) {
    assert(t in tasks, t);
  }
});

Deno.test("the README links every docs/ page, and no link from the README or docs/ is dead", () => {
  const pages = docPages(ROOT);
  assert(pages.length >= 12, `docs/ has its pages (found ${pages.length})`);
  const texts = Object.fromEntries(pages.map((p) => [p, Deno.readTextFileSync(join(ROOT, p))]));
  assert(localLinks(README, "README.md").some((l) => l.path.startsWith("docs/")), "the README links docs/");
  assertEquals(linkProblems(README, texts, readRepoFile), []);
});

Deno.test("the link check catches what it is meant to catch", () => {
  const readme =
    "# Install\n[a](docs/a.md) [gone](docs/gone.md#x) [web](https://example.com/b.md) [top](#install)\n" +
    "[no](#nowhere)\n```text\n[in code](docs/code.md)\n```\n";
  const pages = {
    "docs/a.md":
      "## Big tool outputs\n[back](../README.md#install) [b](b.md#big-tool-outputs) [self](#big-tool-outputs)",
    "docs/b.md": "# Context: tokens, windows\n[dead](c.md#part) [anchor](a.md#context-tokens-windows)",
  };
  const files: Record<string, string> = { "README.md": readme, ...pages };
  assertEquals(localLinks(pages["docs/a.md"], "docs/a.md"), [
    { path: "README.md", anchor: "install" },
    { path: "docs/b.md", anchor: "big-tool-outputs" },
    { path: "docs/a.md", anchor: "big-tool-outputs" },
  ]);
  assertEquals([...anchors(pages["docs/b.md"])], ["context-tokens-windows"]);
  assertEquals(linkProblems(readme, pages, (p) => files[p]), [
    "README.md does not link docs/b.md",
    "README.md links docs/gone.md, which does not exist",
    "README.md links README.md#nowhere, a heading README.md does not have",
    "docs/a.md links docs/b.md#big-tool-outputs, a heading docs/b.md does not have",
    "docs/b.md links docs/c.md, which does not exist",
    "docs/b.md links docs/a.md#context-tokens-windows, a heading docs/a.md does not have",
  ]);
});
