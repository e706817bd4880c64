/** @both-databases: links, clicks and outbox rows through the seam. */
/** Links and clicks written straight to the database, and a recorded click batch (as the recorder does it). */
import { eq } from "drizzle-orm";
import type { SqliteWriterDeps as Deps } from "../../core/clicks/writer";
import type { links, LinkRow, NewClick } from "../../db/schema";
import { storeClicks } from "./clicks";
import { createHmac } from "node:crypto";
import { afterEach, expect } from "bun:test";
import { createTestApp, type TestApp } from "./app";
import { WebhookReceiver } from "./webhook-receiver";
import { FieldError } from "../../core/errors";

let seq = 0;

/** Inserts a link for `userId` with a landing URL (on whichever database the app runs). */
export async function insertLink(
  deps: Pick<Deps, "asyncDb">,
  userId: number,
  over: Partial<typeof links.$inferInsert> = {},
): Promise<LinkRow> {
  const db = deps.asyncDb;
  const [made] = await db
    .insert(db.tables.links)
    .values({ userId, code: `c${Date.now().toString(36)}${seq++}`, url: "https://example.com/landing", title: "Landing", ...over })
    .returning();
  return made!;
}

/** Inserts clicks on `link` and runs the click hooks in the same transaction, like the click recorder. */
export function recordClicks(deps: Deps, link: LinkRow, rows: Partial<NewClick>[] = [{}]) {
  const now = deps.clock.now();
  return storeClicks(
    deps,
    link,
    rows.map((r) => ({
      linkId: link.id,
      clickedAt: now,
      ip: "198.51.100.4",
      country: "DE",
      city: "Berlin",
      device: "mobile",
      os: "iOS",
      browser: "Safari",
      referer: "https://t.me/",
      isBot: false,
      isUnique: true,
      ...r,
    })),
  );
}

export async function outboxRows(deps: Pick<Deps, "asyncDb">, topic?: string) {
  const db = deps.asyncDb;
  const { outbox } = db.tables;
  return db
    .select()
    .from(outbox)
    .where(topic ? eq(outbox.topic, topic) : undefined)
    .orderBy(outbox.id);
}

/** Recomputes the X-Webhook-Signature of a received request (what a receiver does) and says whether it matches. */
export function signatureMatches(secret: string, headers: Record<string, string>, signedPayload: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(headers["x-webhook-signature"] ?? "");
  if (!m) return false;
  // computed independently of core, the way docs/webhooks.md tells receivers to: "<id>.<t>.<payload>"
  const expected = createHmac("sha256", secret).update(`${headers["x-webhook-id"]}.${m[1]}.${signedPayload}`).digest("hex");
  return expected === m[2] && m[1] === headers["x-webhook-timestamp"];
}

/** Registers an afterEach that runs the returned `defer`red clean-ups (last first). */
export function deferCleanup() {
  const fns: (() => unknown)[] = [];
  afterEach(async () => {
    for (const f of fns.splice(0).reverse()) await f();
  });
  return (fn: () => unknown) => fns.push(fn);
}

/** A test app and a webhook receiver on loopback, both closed by `defer`. */
export function appWithReceiver(defer: (fn: () => unknown) => void, env: Record<string, string> = {}): { t: TestApp; rx: WebhookReceiver } {
  const t = createTestApp({ env });
  const rx = new WebhookReceiver().start();
  defer(() => t.close());
  defer(() => rx.stop());
  return { t, rx };
}

/** Awaits a promise that must fail with a 400 on `field`, and gives the message a user would see. */
export async function fieldRefusal(p: Promise<unknown>, field = "webhook_url"): Promise<string> {
  const e = await p.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(FieldError);
  expect(e.status).toBe(400);
  expect(e.details[0].field).toBe(field);
  return e.details[0].message as string;
}
