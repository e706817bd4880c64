import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import type { OutboxRow } from "../delivery/outbox";
import type { Outcome } from "../delivery/send-row";
import { transaction } from "../../db/async";
import { sendWebhook } from "../webhooks/send";
import { TargetError } from "../webhooks/ssrf";
import type { TargetResponse } from "../webhooks/http";
import { attributeClick } from "./attribution";
import { noFacts, type PostbackFacts } from "./events";
import { metaEvent, type ClickFacts } from "./meta";
import { postbackTarget, queuePostbacks } from "./queue";

type PostbackRow = Deps["asyncDb"]["tables"]["postbacks"]["$inferSelect"];
type SendDeps = Pick<Deps, "asyncDb" | "clock" | "config">;

/** The macros of a postback URL: the link's (from the click) and the event's. */
const POSTBACK_MACRO =
  /\{(click_id|link_id|code|placement_id|country|device|sub[1-5]|event|value|currency|external_id|conversion_id|tg_user_id|invite_id)\}/g;

/** The values the macros of a postback take for these facts and the click they name. */
export function postbackValues(f: PostbackFacts, click: ClickFacts | null): Record<string, string | number | null> {
  return {
    event: f.event,
    click_id: f.click_id,
    link_id: f.link_id,
    code: f.code,
    placement_id: f.placement_id,
    invite_id: f.invite_id,
    tg_user_id: f.tg_user_id,
    conversion_id: f.conversion_id,
    value: f.value,
    currency: f.currency,
    external_id: f.external_id,
    country: click?.country ?? null,
    device: click?.device ?? null,
    sub1: click?.sub1 ?? null,
    sub2: click?.sub2 ?? null,
    sub3: click?.sub3 ?? null,
    sub4: click?.sub4 ?? null,
    sub5: click?.sub5 ?? null,
    occurred_at: f.occurred_at,
  };
}

/** A postback URL with its macros replaced, URL-encoded. */
export const expandPostbackUrl = (template: string, values: Record<string, string | number | null>) =>
  template.replace(POSTBACK_MACRO, (_, name: string) => encodeURIComponent(values[name] ?? ""));

/** The stored click the facts name (on their link), with its user agent; null when none is stored. */
async function clickOf(deps: SendDeps, f: PostbackFacts): Promise<ClickFacts | null> {
  if (!f.click_id || f.link_id === null) return null;
  const { clicks, userAgents } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select({
      clickedAt: clicks.clickedAt,
      ip: clicks.ip,
      userAgent: userAgents.ua,
      country: clicks.country,
      device: clicks.device,
      sub1: clicks.sub1,
      sub2: clicks.sub2,
      sub3: clicks.sub3,
      sub4: clicks.sub4,
      sub5: clicks.sub5,
      fbclid: clicks.fbclid,
    })
    .from(clicks)
    .leftJoin(userAgents, eq(userAgents.id, clicks.uaId))
    .where(and(eq(clicks.clickId, f.click_id), eq(clicks.linkId, f.link_id)))
    .limit(1);
  return row ?? null;
}

/**
 * Sends one postback for `facts` now (signed with the owner's webhook secret, address-checked, as
 * webhooks are): a URL postback with its macros filled, by GET or as a POST of the values in JSON;
 * a Meta postback as a Conversions API event with the pixel's access token.
 */
export async function sendPostback(deps: SendDeps, p: PostbackRow, facts: PostbackFacts, deliveryId: string): Promise<TargetResponse> {
  const click = await clickOf(deps, facts);
  if (p.kind === "meta") {
    const url = `${postbackTarget(deps.config, p)}?access_token=${encodeURIComponent(p.accessToken ?? "")}`;
    return sendWebhook(deps, { deliveryId, userId: p.userId, url, method: "POST", data: metaEvent(deps.config, facts, click, deliveryId) });
  }
  const values = postbackValues(facts, click);
  const url = expandPostbackUrl(p.url ?? "", values);
  return sendWebhook(deps, { deliveryId, userId: p.userId, url, method: p.method, data: p.method === "GET" ? {} : values });
}

/** A target's answer as a delivery outcome. */
function outcomeOf(res: TargetResponse): Outcome {
  if (res.status >= 200 && res.status < 300) return { type: "done", note: `HTTP ${res.status}` };
  return { type: "error", error: `HTTP ${res.status}: ${res.body.slice(0, 200)}` };
}

/** The postback of an outbox row, while it still exists. */
async function postbackOf(deps: SendDeps, row: OutboxRow): Promise<PostbackRow | undefined> {
  const { postbacks } = deps.asyncDb.tables;
  const [p] = await deps.asyncDb
    .select()
    .from(postbacks)
    .where(and(eq(postbacks.id, row.refId ?? 0), eq(postbacks.userId, row.userId ?? 0)));
  return p;
}

/** One attempt at a queued postback delivery (the delivery route of its topic); a deleted postback cancels it. */
export async function attemptPostback(deps: Deps, row: OutboxRow): Promise<Outcome> {
  const p = await postbackOf(deps, row);
  if (!p) return { type: "cancelled", note: "the postback was deleted" };
  try {
    return outcomeOf(await sendPostback(deps, p, row.payload as unknown as PostbackFacts, row.deliveryId));
  } catch (e) {
    if (e instanceof TargetError) return { type: "error", error: `${e.kind}: ${e.message}`, permanent: e.kind === "invalid" };
    throw e;
  }
}

/**
 * A stored click's fan-out (queued by the click listener for a link whose owner has click
 * postbacks): one delivery per postback that wants it, queued once however often this runs.
 */
export async function fanOutClick(deps: Deps, row: OutboxRow): Promise<Outcome> {
  const data = row.payload as { click_id: string; link_id: number; code: string; clicked_at: string };
  const ownerId = row.userId ?? 0;
  const queued = await transaction(deps.asyncDb, async (tx) => {
    const attributed = await attributeClick(tx, ownerId, data.click_id);
    const facts: PostbackFacts = {
      ...noFacts("click", new Date(data.clicked_at)),
      click_id: data.click_id,
      link_id: data.link_id,
      code: data.code,
      placement_id: attributed?.placement_id ?? null,
    };
    return queuePostbacks(tx, { config: deps.config, now: deps.clock.now() }, ownerId, facts, row.deliveryId);
  });
  return { type: "done", note: `${queued} postbacks queued` };
}
