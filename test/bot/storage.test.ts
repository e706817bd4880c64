/** The bot's session and conversation storage (bot/storage.ts) on SQLite and on a real PostgreSQL. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { dbStorage } from "../../bot/storage";
import { appEnginesForFile } from "../helpers/async-engines";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

for (const [engine, open] of appEnginesForFile())
  describe(engine, () => {
    test("values are written, overwritten, read back as they were and deleted; prefixes keep stores apart", async () => {
      const { db } = await open();
      const sessions = dbStorage<{ step: number; text?: string }>(db, "session:");
      const dialogs = dbStorage<{ step: number }>(db, "conversation:");
      expect(await sessions.read("42")).toBeUndefined();
      await sessions.write("42", { step: 1, text: "Привет 😀" });
      await sessions.write("42", { step: 2, text: "Привет 😀" });
      await dialogs.write("42", { step: 9 });
      expect(await sessions.read("42")).toEqual({ step: 2, text: "Привет 😀" });
      expect(await dialogs.read("42")).toEqual({ step: 9 });
      await sessions.delete("42");
      expect(await sessions.read("42")).toBeUndefined();
      expect(await dialogs.read("42")).toEqual({ step: 9 });
    });
  });
