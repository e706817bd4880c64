import { afterEach, beforeEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig } from "../config";
import { createDeps } from "../app";
import { silentLogger } from "../core/log";
import { upsertTelegramUser } from "../core/accounts/users";
import { botMessageRow, webhookRow } from "../core/delivery/outbox";
import { clickJournal, clicks, links, outbox, secureFiles, secureFolders, trackers, users } from "../db/schema";
import { openClickJournal } from "../core/clicks/journal";
import { cleanEnv, run } from "./helpers/process";

// this file spawns processes or a browser: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-cli-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => run(["run", "cli.ts", ...args], cleanEnv({ DATA_DIR: dir }));

/** Opens the CLI's database from the test to arrange rows or check effects. */
async function withDb<T>(fn: (deps: ReturnType<typeof createDeps>) => T | Promise<T>): Promise<T> {
  const deps = createDeps(loadConfig({ DATA_DIR: dir }), { log: silentLogger });
  try {
    return await fn(deps);
  } finally {
    deps.handle.close();
  }
}

describe("bun run cli", () => {
  test("without a command it lists the commands; an unknown command is refused", async () => {
    const none = await cli();
    expect(none.code).toBe(2);
    for (const c of ["create-user --email E", "set-plan <user> <plan> [--days N]", "stats"]) expect(none.stdout).toContain(c);
    const unknown = await cli("launch-rockets");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "launch-rockets"');
  });

  test("create-user makes an email account, once", async () => {
    const r = await cli("create-user", "--email", "New@Example.com");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^created user \d+ \(new@example\.com\)$/);
    const row = await withDb((d) => d.db.select().from(users).where(eq(users.email, "new@example.com")).get());
    expect(row?.plan).toBe("free");
    const again = await cli("create-user", "--email", "new@example.com");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`new@example.com already belongs to user ${row!.id}`);
    const bad = await cli("create-user", "--email", "nope");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"nope" is not an email address');
    const missing = await cli("create-user");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Usage: bun run cli create-user --email E");
  });

  test("set-plan by id, email and @username, with and without --days", async () => {
    const { tg, mail } = await withDb(async (d) => ({
      tg: await upsertTelegramUser(d, { id: 9001, username: "Carol", firstName: "Carol" }),
      mail: d.db.insert(users).values({ email: "dan@example.com" }).returning().get(),
    }));
    const byName = await cli("set-plan", "@carol", "pro", "--days=30");
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain(`user ${tg.id} (@Carol) is now on the pro plan until `);
    let row = (await withDb((d) => d.db.select().from(users).where(eq(users.id, tg.id)).get()))!;
    expect(row.plan).toBe("pro");
    const expected = Date.now() + 30 * 86_400_000;
    expect(Math.abs(row.planExpiresAt!.getTime() - expected)).toBeLessThan(60_000);

    expect((await cli("set-plan", String(tg.id), "business")).stdout).toContain("business plan with no expiry");
    row = (await withDb((d) => d.db.select().from(users).where(eq(users.id, tg.id)).get()))!;
    expect([row.plan, row.planExpiresAt]).toEqual(["business", null]);

    expect((await cli("set-plan", "DAN@example.com", "starter")).code).toBe(0);
    expect((await withDb((d) => d.db.select().from(users).where(eq(users.id, mail.id)).get()))!.plan).toBe("starter");
  });

  test("set-plan explains what is wrong", async () => {
    await withDb((d) => upsertTelegramUser(d, { id: 1, username: "erin" }));
    const cases: [string[], number, string][] = [
      [["set-plan", "@nobody", "pro"], 1, "User @nobody not found"],
      [["set-plan", "999", "pro"], 1, "User 999 not found"],
      [["set-plan", "@erin", "gold"], 1, 'unknown plan "gold"; choose one of free, starter, pro, business'],
      [["set-plan", "@erin", "free", "--days", "3"], 1, "the free plan does not expire"],
      [["set-plan", "@erin", "pro", "--days", "soon"], 2, '--days must be a whole number, got "soon"'],
      [["set-plan", "@erin"], 2, "expected a user and a plan"],
      [["set-plan", "@erin", "pro", "--days"], 2, "--days needs a value"],
      [["set-plan", "@erin", "pro", "--weeks", "2"], 2, "unknown option --weeks"],
      [["set-plan", "erin", "pro"], 1, '"erin" is not a user id, an email address or an @username'],
    ];
    for (const [args, code, message] of cases) {
      const r = await cli(...args);
      expect([r.code, r.stderr]).toEqual([code, expect.stringContaining(message)]);
    }
    expect((await withDb((d) => d.db.select().from(users).get()))!.plan).toBe("free");
  });

  test("stats counts users, links, clicks, trackers, secure files and queue depths", async () => {
    await withDb(async (d) => {
      const u = await upsertTelegramUser(d, { id: 7, username: "fay" });
      d.db.insert(users).values({ email: "gone@x.io", mergedIntoId: u.id }).run();
      const l = d.db.insert(links).values({ userId: u.id, code: "abc1234", url: "https://example.com" }).returning().get();
      d.db.insert(links).values({ userId: u.id, code: "abc1235", url: "https://example.com" }).run();
      d.db
        .insert(clicks)
        .values([1, 2, 3].map(() => ({ linkId: l.id, clickedAt: new Date() })))
        .run();
      d.db.insert(trackers).values({ userId: u.id, name: "t", keyword: "bun" }).run();
      const f = d.db.insert(secureFolders).values({ userId: u.id, name: "f" }).returning().get();
      d.db.insert(secureFiles).values({ userId: u.id, folderId: f.id, name: "n", contentType: "text", textContent: "x" }).run();
      const now = new Date();
      const hook = () => webhookRow(now, { userId: u.id, topic: "click_webhook", url: "https://h.example", data: {} });
      const notice = () => botMessageRow(now, { userId: u.id, topic: "notice", chatId: 7, params: { text: "hi" } });
      d.db
        .insert(outbox)
        .values([hook(), hook(), { ...hook(), status: "failed" }, { ...notice(), status: "done" }, notice()])
        .run();
    });
    const json = await cli("stats", "--json");
    expect([json.code, json.stderr]).toEqual([0, ""]);
    expect(JSON.parse(json.stdout)).toEqual({
      users: 1,
      links: 2,
      clicks: 3,
      trackers: 1,
      secureFiles: 1,
      queues: { webhook: { pending: 2, sending: 0, failed: 1 }, bot: { pending: 1, sending: 0, failed: 0 } },
      journals: [],
    });
    const text = await cli("stats");
    expect(text.stdout).toMatch(/^users\s+1$/m);
    expect(text.stdout).toMatch(/^clicks\s+3$/m);
    expect(text.stdout).toMatch(/^outbox webhook\s+2 pending, 0 sending, 1 failed$/m);
  });

  test("stats shows the click journal's backlog: clicks answered but not yet written, the oldest one's age, the mark and the writer's rate", async () => {
    const journal = openClickJournal(join(dir, "click-journal"), 1, { spare: false });
    const at = Date.now() - 90_000;
    for (let i = 0; i < 5; i++)
      journal.append({
        linkId: 1,
        clickedAt: new Date(at + i * 1000),
        ip: "203.0.113.9",
        userAgent: "curl/8",
        referer: null,
        isBot: false,
        botName: null,
      });
    journal.close();
    await withDb((d) => d.db.insert(clickJournal).values({ journal: "local", seq: 2 }).run());
    const json = await cli("stats", "--json", "--sample-ms", "0");
    expect([json.code, json.stderr]).toEqual([0, ""]);
    expect(JSON.parse(json.stdout).journals).toEqual([
      { journal: "local", committedSeq: 2, backlog: { clicks: 3, oldestAt: new Date(at + 2000).toISOString() }, writerRate: null },
    ]);
    const text = await cli("stats", "--sample-ms", "20");
    expect(text.stdout).toMatch(/^journal local\s+3 clicks not yet written, oldest (8[89]|9\d)\.\d s ago; writer 0 clicks\/s; mark 2$/m);
    expect((await cli("stats", "--sample-ms", "-1")).code).toBe(2);
  });

  test("stats finds a node's journal under --journal-dir, and says where it looked when it finds none", async () => {
    const elsewhere = join(dir, "elsewhere");
    const journal = openClickJournal(join(elsewhere, "n1"), 1, { spare: false });
    for (let i = 0; i < 5; i++)
      journal.append({
        linkId: 1,
        clickedAt: new Date(Date.now() - 60_000),
        ip: "203.0.113.9",
        userAgent: "curl/8",
        referer: null,
        isBot: false,
        botName: null,
      });
    journal.close();
    await withDb((d) => d.db.insert(clickJournal).values({ journal: "node:n1", seq: 2 }).run());
    const looked = await cli("stats", "--sample-ms", "0");
    expect(looked.stdout).toContain(
      `journal node:n1  backlog unknown (no such journal under ${join(dir, "click-journal")}: run this on the node's machine with its JOURNAL_DIR, or give --journal-dir); mark 2`,
    );
    const found = await cli("stats", "--sample-ms", "0", "--journal-dir", elsewhere);
    expect(found.stdout).toMatch(/^journal node:n1\s+3 clicks not yet written, oldest \d+\.\d s ago; mark 2$/m);
  });

  test("a configuration error is one line naming the variable", async () => {
    const r = await run(["run", "cli.ts", "stats"], cleanEnv({ DATA_DIR: dir, LOG_LEVEL: "loud" }));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toStartWith("Configuration error: LOG_LEVEL:");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
