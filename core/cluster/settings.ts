import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";

/**
 * Settings every node must agree on and that are generated on first use, such as the JWT signing
 * secret when JWT_SECRET is not set: the first writer wins and everyone reads what it wrote.
 */
export interface SharedSettings {
  /** The value of `key`, made by `make` and stored when there is none yet. */
  getOrCreate(key: string, make: () => string): Promise<string>;
}

const KEY = /^[a-z][a-z0-9-]{0,63}$/;

export function checkSettingKey(key: string): void {
  if (!KEY.test(key)) throw new RangeError(`setting key "${key}" must be lower-case letters, digits and - (at most 64)`);
}

/**
 * One node: each setting is a file in DATA_DIR readable by the service's user only (the JWT secret's
 * `jwt-secret` file). Written whole to a temporary file and linked into place, which fails when the
 * name exists: two processes racing on one directory agree, and neither reads a half-written file.
 */
export function createFileSettings(dir: string): SharedSettings {
  return {
    async getOrCreate(key, make) {
      checkSettingKey(key);
      const file = join(dir, key);
      const draft = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      writeFileSync(draft, make(), { mode: 0o600, flag: "wx" });
      try {
        linkSync(draft, file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      } finally {
        rmSync(draft, { force: true });
      }
      return readFileSync(file, "utf8").trim();
    },
  };
}
