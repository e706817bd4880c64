/**
 * Secure sharing's folders, files, share links and request links (core/secure), one body on each
 * database: a SQLite file and a real PostgreSQL, both migrated as the service migrates them, through
 * the async seam. Creating files (plan limits), counting views and receiving request items are
 * covered through the API and the bot, on SQLite.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../config";
import { ManualClock } from "../../../core/clock";
import { createLogger } from "../../../core/log";
import { AppError } from "../../../core/errors";
import { createFolder, deleteFolder, getFolder, listFolders, togglePause, updateFolder } from "../../../core/secure/folders";
import { deleteFile, listFiles, ownedFile } from "../../../core/secure/files";
import {
  createShareLink,
  deleteShareLink,
  getShareLink,
  listFileShareLinks,
  setShareLinkRevoked,
  updateShareLink,
} from "../../../core/secure/share-links";
import { createRequest, deleteRequest, getRequest, listRequests, requestByCode, updateRequest } from "../../../core/secure/requests";
import { openRequest } from "../../../core/secure/request-items";
import { linkOwner } from "../../../core/secure/view";
import { createFileStorage } from "../../../core/storage";
import { appEnginesForFile } from "../../helpers/async-engines";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const engines = appEnginesForFile();
const dataDir = mkdtempSync(join(tmpdir(), "linkbot-secure-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** What a caller at the edge sees of a failure: the status and machine code. */
async function failure(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof AppError)) throw new Error(`expected a domain error, got ${String(e)}`);
  return { status: e.status, code: e.code };
}

for (const [engine, open] of engines)
  describe(engine, () => {
    async function setup() {
      const { db } = await open();
      const clock = new ManualClock("2026-03-01T09:30:00.000Z");
      const config = loadConfig({ DATA_DIR: dataDir, SHORT_URL: "https://s.example", LOG_LEVEL: "error" });
      const deps = { asyncDb: db, clock, config, log: createLogger("error"), storage: createFileStorage(config) };
      const user = async (username: string) => (await db.insert(db.tables.users).values({ username }).returning())[0]!.id;
      /** a file row as an upload or a text leaves it */
      const file = async (userId: number, folderId: number, name: string, content: { text?: string; storagePath?: string } = {}) =>
        (
          await db
            .insert(db.tables.secureFiles)
            .values({
              userId,
              folderId,
              name,
              contentType: content.text === undefined ? "file" : "text",
              textContent: content.text ?? null,
              storagePath: content.storagePath ?? null,
              createdAt: clock.now(),
            })
            .returning()
        )[0]!;
      return { deps, clock, file, ada: await user("ada"), bob: await user("bob") };
    }

    test("folders: created trimmed, listed oldest first with their file counts, renamed, paused, deleted with their files' bytes; another user's answer 404", async () => {
      const { deps, clock, file, ada, bob } = await setup();
      const work = await createFolder(deps, ada, { name: "  Work " });
      expect(work).toEqual({
        id: expect.any(Number),
        name: "Work",
        description: "",
        isPaused: false,
        fileCount: 0,
        createdAt: "2026-03-01T09:30:00.000Z",
        updatedAt: "2026-03-01T09:30:00.000Z",
      });
      const home = await createFolder(deps, ada, { name: "Home", description: "bills" });
      await createFolder(deps, bob, { name: "Bob's" });
      expect(await failure(createFolder(deps, ada, { name: "  " }))).toEqual({ status: 400, code: "validation_error" });

      mkdirSync(join(dataDir, "secure"), { recursive: true });
      const stored = `secure/${engine}-${work.id}.bin`;
      writeFileSync(join(dataDir, stored), "bytes");
      await file(ada, work.id, "scan", { storagePath: stored });
      await file(ada, work.id, "memo", { text: "hi" });
      expect((await listFolders(deps, ada)).map((f) => `${f.name}:${f.fileCount}`)).toEqual(["Work:2", "Home:0"]);
      expect((await getFolder(deps, ada, home.id)).description).toBe("bills");

      clock.advance(60_000);
      const renamed = await updateFolder(deps, ada, home.id, { name: " House " });
      expect(renamed).toMatchObject({ name: "House", description: "bills", updatedAt: "2026-03-01T09:31:00.000Z" });
      expect((await togglePause(deps, ada, home.id)).isPaused).toBe(true);
      expect((await togglePause(deps, ada, home.id)).isPaused).toBe(false);

      expect((await failure(getFolder(deps, bob, work.id))).status).toBe(404);
      expect((await failure(togglePause(deps, bob, work.id))).status).toBe(404);
      expect((await failure(deleteFolder(deps, bob, work.id))).status).toBe(404);
      expect(existsSync(join(dataDir, stored))).toBe(true);

      await deleteFolder(deps, ada, work.id);
      expect(existsSync(join(dataDir, stored))).toBe(false);
      expect((await listFolders(deps, ada)).map((f) => f.name)).toEqual(["House"]);
      expect((await failure(getFolder(deps, ada, work.id))).status).toBe(404);
    });

    test("a folder being deleted while a stored file lands in it: the late file's bytes go too", async () => {
      const { deps, file, ada } = await setup();
      const folder = await createFolder(deps, ada, { name: "Work" });
      mkdirSync(join(dataDir, "secure"), { recursive: true });
      const early = `secure/${engine}-early.bin`;
      const late = `secure/${engine}-late.bin`;
      writeFileSync(join(dataDir, early), "bytes");
      await file(ada, folder.id, "early", { storagePath: early });
      // the handle lands the late file just before the folder's own delete is sent
      const db = deps.asyncDb;
      let landed = false;
      const racing = new Proxy(db, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target);
          if (prop !== "delete") return typeof value === "function" ? value.bind(target) : value;
          return (table: unknown) => {
            if (table !== db.tables.secureFolders || landed) return target.delete(table as typeof db.tables.secureFolders);
            landed = true;
            return {
              where: (cond: Parameters<ReturnType<typeof db.delete>["where"]>[0]) => ({
                returning: async (cols: { id: typeof db.tables.secureFolders.id }) => {
                  writeFileSync(join(dataDir, late), "bytes");
                  await file(ada, folder.id, "late", { storagePath: late });
                  return target.delete(db.tables.secureFolders).where(cond).returning(cols);
                },
              }),
            };
          };
        },
      });
      await deleteFolder({ ...deps, asyncDb: racing }, ada, folder.id);
      expect(landed).toBe(true);
      expect([existsSync(join(dataDir, early)), existsSync(join(dataDir, late))]).toEqual([false, false]);
      expect(await listFolders(deps, ada)).toEqual([]);
      expect(await db.select().from(db.tables.secureFiles)).toEqual([]);
    });

    test("two deletes of one folder at the same time both end, and the folder and its files are gone", async () => {
      const { deps, file, ada } = await setup();
      const folder = await createFolder(deps, ada, { name: "Twice" });
      for (let i = 0; i < 5; i++) await file(ada, folder.id, `f${i}`);
      const outcomes = await Promise.allSettled([deleteFolder(deps, ada, folder.id), deleteFolder(deps, ada, folder.id)]);
      // the second may find the folder gone before it starts (404) or while it works (done); it never spins
      for (const o of outcomes) if (o.status === "rejected") expect((o.reason as { status?: number }).status).toBe(404);
      expect(outcomes.some((o) => o.status === "fulfilled")).toBe(true);
      expect(await listFolders(deps, ada)).toEqual([]);
      expect(await deps.asyncDb.select().from(deps.asyncDb.tables.secureFiles)).toEqual([]);
    });

    test("share links: only to a file with content; their state follows revocation, the folder's pause and expiry; deleting the file takes its links", async () => {
      const { deps, clock, file, ada, bob } = await setup();
      const folder = await createFolder(deps, ada, { name: "Work" });
      const memo = await file(ada, folder.id, "memo", { text: "hi" });
      const empty = await file(ada, folder.id, "not uploaded yet");
      expect((await listFiles(deps, ada, folder.id)).map((f) => `${f.name}:${f.hasContent}`)).toEqual([
        "memo:true",
        "not uploaded yet:false",
      ]);
      expect((await ownedFile(deps, ada, memo.id)).textContent).toBe("hi");
      expect((await failure(ownedFile(deps, bob, memo.id))).status).toBe(404);
      expect((await failure(listFiles(deps, bob, folder.id))).status).toBe(404);

      expect(await failure(createShareLink(deps, ada, { fileId: empty.id, expiresInHours: 1 }))).toEqual({
        status: 400,
        code: "validation_error",
      });
      expect((await failure(createShareLink(deps, bob, { fileId: memo.id, expiresInHours: 1 }))).status).toBe(404);
      const link = await createShareLink(deps, ada, { fileId: memo.id, expiresInHours: 2, maxViews: 3 });
      expect(link).toMatchObject({
        fileId: memo.id,
        url: `https://s.example/s/${link.code}`,
        expiresAt: "2026-03-01T11:30:00.000Z",
        maxViews: 3,
        viewCount: 0,
        state: "active",
        hasPassword: false,
        notifyOnView: false,
      });
      const other = await createShareLink(deps, ada, { fileId: memo.id, expiresInHours: 1 });
      expect((await listFileShareLinks(deps, ada, memo.id)).map((l) => l.id)).toEqual([link.id, other.id]);
      expect(await linkOwner(deps, link.code)).toBe(ada);
      expect(await linkOwner(deps, "nope")).toBeNull();

      expect(await updateShareLink(deps, ada, link.id, { passwordHash: "hash", notifyOnView: true })).toMatchObject({
        hasPassword: true,
        notifyOnView: true,
      });
      expect((await updateShareLink(deps, ada, link.id, { passwordHash: null })).hasPassword).toBe(false);
      expect((await setShareLinkRevoked(deps, ada, link.id, true)).state).toBe("revoked");
      expect((await setShareLinkRevoked(deps, ada, link.id, false)).state).toBe("active");
      await togglePause(deps, ada, folder.id);
      expect((await getShareLink(deps, ada, link.id)).state).toBe("paused");
      await togglePause(deps, ada, folder.id);
      clock.advance(3600_000);
      expect((await listFileShareLinks(deps, ada, memo.id)).map((l) => l.state)).toEqual(["active", "expired"]);
      expect((await failure(getShareLink(deps, bob, link.id))).status).toBe(404);
      expect((await failure(setShareLinkRevoked(deps, bob, link.id, true))).status).toBe(404);

      await deleteShareLink(deps, ada, other.id);
      expect((await failure(getShareLink(deps, ada, other.id))).status).toBe(404);
      expect((await failure(deleteFile(deps, bob, memo.id))).status).toBe(404);
      await deleteFile(deps, ada, memo.id);
      expect((await failure(getShareLink(deps, ada, link.id))).status).toBe(404);
      expect(await linkOwner(deps, link.code)).toBeNull();
      expect((await getFolder(deps, ada, folder.id)).fileCount).toBe(1);
    });

    test("request links: listed newest first, turned off and on, expiring; a closed one answers 410 with why; unknown codes 404", async () => {
      const { deps, clock, ada, bob } = await setup();
      const folder = await createFolder(deps, ada, { name: "Inbox" });
      const open1 = await createRequest(deps, ada, { folderId: folder.id, title: " Scans " });
      expect(open1).toMatchObject({
        url: `https://s.example/r/${open1.code}`,
        folderId: folder.id,
        title: "Scans",
        expiresAt: null,
        maxFiles: null,
        filesReceived: 0,
        isActive: true,
        state: "active",
      });
      const timed = await createRequest(deps, ada, { folderId: folder.id, expiresInHours: 1, maxFiles: 2 });
      expect((await failure(createRequest(deps, bob, { folderId: folder.id }))).status).toBe(404);
      expect((await listRequests(deps, ada)).map((r) => r.id)).toEqual([timed.id, open1.id]);
      expect(await listRequests(deps, bob)).toEqual([]);
      expect((await requestByCode(deps, open1.code)).id).toBe(open1.id);
      expect((await openRequest(deps, timed.code)).maxFiles).toBe(2);

      expect(await updateRequest(deps, ada, open1.id, { isActive: false, title: "Old scans" })).toMatchObject({
        title: "Old scans",
        isActive: false,
        state: "inactive",
      });
      expect(await failure(openRequest(deps, open1.code))).toEqual({ status: 410, code: "request_inactive" });
      expect((await updateRequest(deps, ada, open1.id, {})).state).toBe("inactive");
      expect((await updateRequest(deps, ada, open1.id, { isActive: true })).state).toBe("active");
      clock.advance(3600_000);
      expect((await getRequest(deps, ada, timed.id)).state).toBe("expired");
      expect(await failure(openRequest(deps, timed.code))).toEqual({ status: 410, code: "request_expired" });
      expect((await failure(openRequest(deps, "nope"))).status).toBe(404);
      expect((await failure(requestByCode(deps, "x".repeat(65)))).status).toBe(404);
      expect((await failure(getRequest(deps, bob, open1.id))).status).toBe(404);

      expect((await failure(deleteRequest(deps, bob, open1.id))).status).toBe(404);
      await deleteRequest(deps, ada, open1.id);
      expect((await listRequests(deps, ada)).map((r) => r.id)).toEqual([timed.id]);
    });
  });
