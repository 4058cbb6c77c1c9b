// Which workspace paths changed between two moments, from the OS's file events (inotify on Linux, FSEvents on
// macOS, through Deno.watchFs), and whether they can be trusted to be complete.
//
// Deno hands file events over through a queue of 16 and drops an event when that queue is full. A dropped
// event therefore means that at least 16 events were queued; none of them had been read yet, so they are all
// read within the window in which the drop happened or the next one. A window (from one fence to the next) whose
// events and those of the window before add up to fewer than 16 has lost none. A fence is a symbolic link
// (dangling, never followed) created in a folder of navi's own: one event; once it is read, every earlier
// event has been read too. Fences are removed when the watch closes, not before (a removal is an event too).
import { join } from "node:path";

/**
 * What changed in the workspace since the last `settle`: the paths (relative), and whether they are all of
 * them (`complete`: no event can have been lost).
 */
export interface Settled {
  paths: string[];
  complete: boolean;
}

const QUEUE = 16;
const FENCE_WAIT_MS = 250;
const FENCE_TRIES = 8;

/** File events of one workspace, read into windows between fences. */
export class ChangeWatch {
  #root: string;
  #fenceDir: string;
  #watcher: Deno.FsWatcher;
  #paths = new Set<string>();
  #count = 0;
  #previous = 0;
  #overflow = false;
  #seq = 0;
  #waiting?: { name: string; resolve: () => void };
  #failed?: string;
  #loop: Promise<void>;

  private constructor(root: string, fenceDir: string, watcher: Deno.FsWatcher) {
    this.#root = root;
    this.#fenceDir = fenceDir;
    this.#watcher = watcher;
    this.#loop = this.#read();
  }

  /** Watch the workspace `root` (a real path); fences go in `fenceDir`. Throws when the OS refuses. */
  static start(root: string, fenceDir: string): ChangeWatch {
    Deno.mkdirSync(fenceDir, { recursive: true, mode: 0o700 });
    for (const e of Deno.readDirSync(fenceDir)) Deno.removeSync(join(fenceDir, e.name));
    return new ChangeWatch(root, fenceDir, Deno.watchFs([root, fenceDir], { recursive: true }));
  }

  /** Why the watch stopped working, if it did (then every `settle` is unknown). */
  get failed(): string | undefined {
    return this.#failed;
  }

  async #read(): Promise<void> {
    try {
      for await (const event of this.#watcher) {
        this.#count++;
        if (event.flag === "rescan") this.#overflow = true;
        for (const path of event.paths) {
          if (path.startsWith(this.#fenceDir + "/")) {
            const w = this.#waiting;
            if (w && path.endsWith("/" + w.name)) {
              this.#waiting = undefined;
              w.resolve();
            }
          } else if (path === this.#root) this.#overflow = true;
          else if (path.startsWith(this.#root + "/")) this.#paths.add(path.slice(this.#root.length + 1));
        }
      }
    } catch (err) {
      this.#failed = (err as Error).message;
    } finally {
      this.#failed ??= "the file watch ended";
      this.#waiting?.resolve();
    }
  }

  /** Set a fence and wait until its event arrives; false when it never did. */
  async #fence(): Promise<boolean> {
    for (let i = 0; i < FENCE_TRIES && !this.#failed; i++) {
      const name = `f${++this.#seq}`;
      const arrived = new Promise<void>((resolve) => (this.#waiting = { name, resolve }));
      Deno.symlinkSync("fence", join(this.#fenceDir, name));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), FENCE_WAIT_MS)));
      const won = await Promise.race([arrived, late]);
      clearTimeout(timer);
      if (won !== "late") return !this.#failed;
      this.#overflow = true;
    }
    return false;
  }

  /** Close the window: what changed since the last settle (or since the watch started). */
  async settle(): Promise<Settled> {
    const ok = await this.#fence();
    const count = this.#count;
    const complete = ok && !this.#overflow && this.#previous + count < QUEUE;
    const paths = [...this.#paths];
    this.#previous = count;
    this.#count = 0;
    this.#paths.clear();
    this.#overflow = false;
    return { paths, complete };
  }

  /**
   * The workspace was just walked after an untrusted window: every change before now is in the index, so the
   * next window is judged by its own events alone (a drop that belonged to it needs 16 of its own).
   */
  walked(): void {
    this.#previous = 0;
  }

  /** Stop watching and remove the fences. */
  async close(): Promise<void> {
    try {
      this.#watcher.close();
    } catch { /* already closed */ }
    await this.#loop;
    try {
      Deno.removeSync(this.#fenceDir, { recursive: true });
    } catch { /* gone already */ }
  }
}
