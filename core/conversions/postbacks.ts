import { randomUUID } from "node:crypto";
import { MAX_POSTBACK_URL, POSTBACK_MACROS, postbackTemplateProblem } from "./template";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, transaction, type AsyncDbOrTx } from "../../db/async";
import { FieldError, NotFound } from "../errors";
import { TargetError, type TargetFailure } from "../webhooks/ssrf";
import { syncClickPostbacks } from "../click-postbacks";
import { ANY_EVENT, EVENT_NAME, SERVICE_EVENTS, noFacts, type PostbackFacts } from "./events";
import { POSTBACK_TOPIC } from "./queue";
import { sendPostback } from "./send";

/** A postback as set up: a URL template, or the Meta format. */
export type PostbackInput = {
  events: string[];
  link_id?: number | null;
  placement_id?: number | null;
} & ({ url: string; method?: "GET" | "POST" } | { kind: "meta"; pixel_id: string; access_token: string });

/** A postback as its owner sees it (the Meta access token is never shown again). */
export interface PostbackView {
  id: number;
  kind: "url" | "meta";
  url: string | null;
  method: "GET" | "POST";
  events: string[];
  link_id: number | null;
  placement_id: number | null;
  pixel_id: string | null;
  created_at: string;
}

export const MAX_POSTBACK_EVENTS = 20;
export { MAX_POSTBACK_URL };
const MAX_PER_ACCOUNT = 100;

type PostbackRow = Deps["asyncDb"]["tables"]["postbacks"]["$inferSelect"];
const view = (p: PostbackRow): PostbackView => ({
  id: p.id,
  kind: p.kind,
  url: p.url,
  method: p.method,
  events: p.events,
  link_id: p.linkId,
  placement_id: p.placementId,
  pixel_id: p.pixelId,
  created_at: p.createdAt.toISOString(),
});

function checkEvents(events: string[]): string[] {
  const list = [...new Set(events)];
  if (!list.length || list.length > MAX_POSTBACK_EVENTS) throw new FieldError("events", `must name 1 to ${MAX_POSTBACK_EVENTS} events`);
  for (const e of list)
    if (e !== ANY_EVENT && !(SERVICE_EVENTS as readonly string[]).includes(e) && !EVENT_NAME.test(e))
      throw new FieldError("events", `"${e}" is not an event: click, join_request, join, leave, a conversion event such as purchase, or *`);
  return list;
}

function checkUrl(url: string): string {
  const problem = postbackTemplateProblem(url);
  if (problem?.kind === "unknown_macro")
    throw new FieldError("url", `{${problem.name}} is not a macro (the macros: ${POSTBACK_MACROS.map((m) => `{${m}}`).join(", ")})`);
  if (problem) throw new FieldError("url", "must be an absolute http(s) URL (macros such as {click_id} allowed)");
  return url.trim();
}

/** Fails with 404 unless the link or placement is the owner's. */
async function checkScope(db: AsyncDbOrTx, ownerId: number, linkId: number | null, placementId: number | null) {
  if (linkId !== null && placementId !== null) throw new FieldError("placement_id", "give a link_id or a placement_id, not both");
  const { links, placements } = db.tables;
  if (
    linkId !== null &&
    !first(
      await db
        .select({ id: links.id })
        .from(links)
        .where(and(eq(links.id, linkId), eq(links.userId, ownerId))),
    )
  )
    throw new NotFound("Link");
  if (
    placementId !== null &&
    !first(
      await db
        .select({ id: placements.id })
        .from(placements)
        .where(and(eq(placements.id, placementId), eq(placements.userId, ownerId))),
    )
  )
    throw new NotFound("Placement");
}

/** Sets up a postback of `ownerId`'s (a URL template or the Meta format) for some events of a link, a placement or the whole account. */
export async function createPostback(deps: Pick<Deps, "asyncDb" | "clock">, ownerId: number, input: PostbackInput): Promise<PostbackView> {
  const events = checkEvents(input.events);
  const linkId = input.link_id ?? null;
  const placementId = input.placement_id ?? null;
  const meta = "kind" in input && input.kind === "meta";
  const cols = meta
    ? { kind: "meta" as const, url: null, method: "POST" as const, pixelId: input.pixel_id.trim(), accessToken: input.access_token.trim() }
    : {
        kind: "url" as const,
        url: checkUrl((input as { url: string }).url),
        method: (input as { method?: "GET" | "POST" }).method ?? "GET",
      };
  if (meta && !/^\d{1,30}$/.test(input.pixel_id.trim())) throw new FieldError("pixel_id", "must be the pixel's number");
  if (meta && !input.access_token.trim()) throw new FieldError("access_token", "is needed for the Meta Conversions API");
  return transaction(deps.asyncDb, async (tx) => {
    await checkScope(tx, ownerId, linkId, placementId);
    const { postbacks } = tx.tables;
    if ((await tx.select({ id: postbacks.id }).from(postbacks).where(eq(postbacks.userId, ownerId))).length >= MAX_PER_ACCOUNT)
      throw new FieldError("url", `an account has at most ${MAX_PER_ACCOUNT} postbacks`);
    const [row] = await tx
      .insert(postbacks)
      .values({ userId: ownerId, ...cols, events, linkId, placementId, createdAt: deps.clock.now() })
      .returning();
    await syncClickPostbacks(tx, ownerId);
    return view(row!);
  });
}

/** The owner's postbacks, newest first. */
export async function listPostbacks(deps: Pick<Deps, "asyncDb">, ownerId: number): Promise<PostbackView[]> {
  const { postbacks } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(postbacks).where(eq(postbacks.userId, ownerId)).orderBy(desc(postbacks.id))).map(view);
}

async function ownPostback(db: AsyncDbOrTx, ownerId: number, id: number): Promise<PostbackRow> {
  const { postbacks } = db.tables;
  const row = first(
    await db
      .select()
      .from(postbacks)
      .where(and(eq(postbacks.id, id), eq(postbacks.userId, ownerId))),
  );
  if (!row) throw new NotFound("Postback");
  return row;
}

/** One of the owner's postbacks (404 when not theirs). */
export async function getPostback(deps: Pick<Deps, "asyncDb">, ownerId: number, id: number): Promise<PostbackView> {
  return view(await ownPostback(deps.asyncDb, ownerId, id));
}

/** Deletes one of the owner's postbacks; its queued deliveries are cancelled when their turn comes. */
export async function deletePostback(deps: Pick<Deps, "asyncDb">, ownerId: number, id: number): Promise<void> {
  await transaction(deps.asyncDb, async (tx) => {
    await ownPostback(tx, ownerId, id);
    const { postbacks } = tx.tables;
    await tx.delete(postbacks).where(eq(postbacks.id, id));
    await syncClickPostbacks(tx, ownerId);
  });
}

/** What a test send answers. */
export interface PostbackTestResult {
  ok: boolean;
  status?: number;
  error?: string;
  /** why it failed, for a reader to word (TargetFailure) */
  kind?: TargetFailure;
  body?: string;
  delivery_id: string;
}

/** Sample facts of a test send: the postback's first event, a made-up click id and a value. */
function sampleFacts(p: PostbackRow, now: Date): PostbackFacts {
  const event = p.events.find((e) => e !== ANY_EVENT) ?? "purchase";
  return {
    ...noFacts(event, now),
    click_id: "test_click",
    link_id: p.linkId,
    placement_id: p.placementId,
    value: 1,
    currency: "USD",
    external_id: "test",
  };
}

/** Sends a test postback now (a sample event) and answers what the target said. */
export async function testPostback(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  ownerId: number,
  id: number,
): Promise<PostbackTestResult> {
  const p = await ownPostback(deps.asyncDb, ownerId, id);
  const deliveryId = randomUUID();
  try {
    const res = await sendPostback(deps, p, sampleFacts(p, deps.clock.now()), deliveryId);
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      status: res.status,
      body: res.body.slice(0, 500),
      delivery_id: deliveryId,
      ...(ok ? {} : { error: `the target answered ${res.status}`, kind: "status" as const }),
    };
  } catch (e) {
    if (e instanceof TargetError) return { ok: false, error: `the target ${e.message}`, kind: e.kind, delivery_id: deliveryId };
    throw e;
  }
}

/** One delivery of a postback in its log. */
export interface PostbackDeliveryView {
  id: string;
  event: string;
  url: string;
  method: string;
  status: "pending" | "sending" | "done" | "failed" | "cancelled";
  attempts: number;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}

/** A postback's recent deliveries, newest first (404 when the postback is not the owner's). */
export async function postbackDeliveries(
  deps: Pick<Deps, "asyncDb">,
  ownerId: number,
  id: number,
  q: { limit?: number } = {},
): Promise<PostbackDeliveryView[]> {
  await ownPostback(deps.asyncDb, ownerId, id);
  const { outbox } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select()
    .from(outbox)
    .where(and(eq(outbox.userId, ownerId), inArray(outbox.topic, [POSTBACK_TOPIC]), eq(outbox.refId, id)))
    .orderBy(desc(outbox.id))
    .limit(q.limit ?? 20);
  return rows.map((r) => ({
    id: r.deliveryId,
    event: String((r.payload as { event?: unknown }).event ?? ""),
    url: r.target,
    method: r.method,
    status: r.status,
    attempts: r.attempts,
    last_error: r.lastError,
    created_at: r.createdAt.toISOString(),
    completed_at: r.completedAt?.toISOString() ?? null,
  }));
}
