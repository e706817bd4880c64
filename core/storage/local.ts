import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { PRIVATE_DIR, PRIVATE_FILE } from "../data-dir";
import { randomSecret } from "../random";
import type { FileStore } from "./index";

/**
 * Files under DATA_DIR: `<prefix>/<name>` is the file DATA_DIR/<prefix>/<name>. An upload is written
 * to DATA_DIR/<prefix>/tmp and renamed into place when complete (a rename is atomic, so a reader
 * never sees half a file). Served with Bun.file, so the kernel sends the bytes.
 */
export function createLocalStore(root: string): FileStore {
  const pathOf = (key: string) => {
    const rel = normalize(key);
    if (rel.startsWith("..") || rel.startsWith("/")) throw new RangeError(`stored file key "${key}" leaves DATA_DIR`);
    return join(root, rel);
  };
  const tmpOf = (key: string) => join(dirname(pathOf(key)), "tmp");
  return {
    driver: "local",
    async put(key, source) {
      // readable by the service's user only, like everything under DATA_DIR (see core/data-dir.ts)
      mkdirSync(tmpOf(key), { recursive: true, mode: PRIVATE_DIR });
      const tmpPath = join(tmpOf(key), `${randomSecret(12)}.part`);
      const out = createWriteStream(tmpPath, { flags: "wx", mode: PRIVATE_FILE });
      const outDone = new Promise<void>((resolve, reject) => {
        out.on("close", resolve);
        out.on("error", reject);
      });
      let size = 0;
      try {
        for await (const chunk of source) {
          size += chunk.length;
          if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", r));
        }
        out.end();
        await outDone;
        renameSync(tmpPath, pathOf(key));
      } catch (e) {
        out.destroy();
        await outDone.catch(() => undefined);
        rmSync(tmpPath, { force: true });
        throw e;
      }
      return size;
    },
    async open(key) {
      const file = Bun.file(pathOf(key));
      if (!(await file.exists())) return null;
      const size = file.size;
      return { size, body: (range) => (range ? file.slice(range.start, range.end + 1) : file) };
    },
    async remove(key) {
      rmSync(pathOf(key), { force: true });
    },
    async sweep(prefix, before) {
      const dir = join(pathOf(prefix), "tmp");
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const path = join(dir, name);
        try {
          if (statSync(path).mtimeMs < before.getTime()) {
            rmSync(path, { force: true });
            removed++;
          }
        } catch {
          /* vanished meanwhile */
        }
      }
      return removed;
    },
  };
}
