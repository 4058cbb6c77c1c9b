import { loadConfig, naviHome, readProjectLayer, TrustStore } from "../../mod.ts";
import type { Sink } from "../../output/mod.ts";
import { makeStyle, table } from "../style.ts";
import { readCookedLine, trustIntro } from "../trust_prompt.ts";

/** `navi trust`: list what the folder would run and trust it; `--revoke`, `--list`. Returns the exit status. */
export async function trustCommand(
  opts: { yes?: boolean; revoke?: boolean; list?: boolean },
  io: { out: Sink },
): Promise<number> {
  const home = naviHome();
  const store = new TrustStore(home);
  const style = makeStyle(Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR"));
  if (opts.list) {
    const rows = Object.entries(store.list()).map(([path, r]) => [
      path,
      r.trusted ? style.green("trusted") : style.yellow("not trusted"),
      r.at.slice(0, 19).replace("T", " "),
    ]);
    io.out.write((rows.length ? table(rows) : `no folders answered yet (${store.file})`) + "\n");
    return 0;
  }
  const { project } = await readProjectLayer({
    home,
    workspace: Deno.cwd(),
    env: Deno.env,
    user: await loadConfig(home),
  });
  const root = project.layout.root;
  const items = project.runnables();
  const hash = await project.hash();
  if (opts.revoke) {
    store.set(root, { trusted: false, hash: hash ?? "" });
    io.out.write(`${root} is no longer trusted; its code-running parts are skipped\n`);
    return 0;
  }
  if (!hash) {
    io.out.write(`nothing in ${root} runs code or widens permissions; nothing to trust\n`);
    return 0;
  }
  io.out.write(trustIntro({ root, state: "new", items }, style));
  if (!opts.yes && Deno.stdin.isTerminal()) {
    io.out.write("Trust this folder? [y/N] ");
    const answer = (await readCookedLine())?.trim().toLowerCase();
    if (answer !== "y" && answer !== "yes") {
      io.out.write("not trusted; nothing changed\n");
      return 1;
    }
  }
  store.set(root, { trusted: true, hash });
  io.out.write(`trusted ${root}; a change to these files asks again (navi trust --revoke undoes it)\n`);
  return 0;
}
