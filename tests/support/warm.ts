// Warms Deno's global cache for the npm packages tests start as separate processes, the way they start them:
// `deno run npm:...` from a directory without deno.json (a project's `deno cache` fills its node_modules
// instead, and resolves through its lockfile). `deno run -A tests/support/warm.ts`; part of `deno task test`.
export const SERVER_EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "navi-warm-" });
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["cache", "--quiet", SERVER_EVERYTHING],
      cwd: dir,
      stdout: "inherit",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      console.error(`could not cache ${SERVER_EVERYTHING}:\n${new TextDecoder().decode(stderr)}`);
      Deno.exit(1);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
