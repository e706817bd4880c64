import { and, desc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, transaction, type AsyncDbOrTx } from "../../db/async";
import { FieldError } from "../errors";
import { isCurrencyCode } from "../currency";
import { attributeClick, attributeTelegramUser, type Attribution } from "./attribution";
import { isReportableEvent, MAX_EXTERNAL_ID, MAX_VALUE, STARS, type PostbackFacts } from "./events";
import { queuePostbacks } from "./queue";

/** A conversion as reported (`POST /api/conversions`, the GET postback URL). */
export interface ConversionInput {
  event: string;
  clickId?: string | null;
  tgUserId?: number | null;
  value?: number | null;
  currency?: string | null;
  externalId?: string | null;
  occurredAt?: Date | null;
}

/** What recording a conversion answers: `created` false when its external id was already recorded (the first one). */
export interface RecordedConversion {
  id: number;
  event: string;
  attributed: Attribution | null;
  created: boolean;
}

type ConversionRow = AsyncDbOrTx["tables"]["conversions"]["$inferSelect"];

const attributionOf = (r: Pick<ConversionRow, "linkId" | "placementId" | "inviteId">): Attribution | null =>
  r.linkId === null && r.placementId === null && r.inviteId === null
    ? null
    : { link_id: r.linkId, placement_id: r.placementId, invite_id: r.inviteId };

/** A stored value (micros) as a number of the currency. */
const amountOf = (micros: number | null) => (micros === null ? null : micros / 1e6);

/** The facts a postback of a stored conversion is filled from. */
export function conversionFacts(r: ConversionRow, code: string | null): PostbackFacts {
  return {
    event: r.event,
    occurred_at: r.occurredAt.toISOString(),
    conversion_id: r.id,
    click_id: r.clickId,
    link_id: r.linkId,
    code,
    placement_id: r.placementId,
    invite_id: r.inviteId,
    tg_user_id: r.tgUserId,
    value: amountOf(r.valueMicros),
    currency: r.currency,
    external_id: r.externalId,
  };
}

function checked(input: ConversionInput) {
  if (!isReportableEvent(input.event))
    throw new FieldError(
      "event",
      "must be a lower-case name such as purchase or lead (click, join_request, join and leave are recorded by the service)",
    );
  const currency = input.currency ? input.currency.toUpperCase() : null;
  if (currency !== null && currency !== STARS && !isCurrencyCode(currency))
    throw new FieldError("currency", "must be an ISO 4217 code such as USD, or XTR for Telegram Stars");
  const value = input.value ?? null;
  if (value !== null && (!Number.isFinite(value) || value < 0 || value > MAX_VALUE))
    throw new FieldError("value", "must be a number from 0 to 10^12");
  if (value !== null && currency === null) throw new FieldError("currency", "is needed with a value");
  // Stars are spent whole: 1.5 XTR is a mistake, not a price
  if (value !== null && currency === STARS && !Number.isInteger(value))
    throw new FieldError("value", "must be a whole number of Telegram Stars (XTR)");
  const externalId = input.externalId ?? null;
  if (externalId !== null && (externalId.length === 0 || externalId.length > MAX_EXTERNAL_ID))
    throw new FieldError("external_id", `must be 1 to ${MAX_EXTERNAL_ID} characters`);
  return { currency, value, externalId };
}

/**
 * Records a conversion of `ownerId`'s: attributed by `click_id` to that click's link (the owner's
 * clicks only), else by `tg_user_id` to that person's latest join through one of the owner's invites
 * in the last 30 days, else not attributed. The same `external_id` twice is one conversion: the
 * second call answers the first (`created: false`) and changes nothing. The postbacks that want the
 * event are queued in the same transaction.
 */
export async function recordConversion(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  ownerId: number,
  input: ConversionInput,
): Promise<RecordedConversion> {
  const { currency, value, externalId } = checked(input);
  const now = deps.clock.now();
  return transaction(deps.asyncDb, async (tx) => {
    const { conversions, links } = tx.tables;
    const earlier = async () =>
      externalId === null
        ? undefined
        : first(
            await tx
              .select()
              .from(conversions)
              .where(and(eq(conversions.userId, ownerId), eq(conversions.externalId, externalId))),
          );
    const before = await earlier();
    if (before) return { id: before.id, event: before.event, attributed: attributionOf(before), created: false };
    const attributed =
      (input.clickId ? await attributeClick(tx, ownerId, input.clickId) : null) ??
      (input.tgUserId ? await attributeTelegramUser(tx, ownerId, input.tgUserId, now) : null);
    const [row] = await tx
      .insert(conversions)
      .values({
        userId: ownerId,
        event: input.event,
        clickId: input.clickId ?? null,
        tgUserId: input.tgUserId ?? null,
        linkId: attributed?.link_id ?? null,
        placementId: attributed?.placement_id ?? null,
        inviteId: attributed?.invite_id ?? null,
        valueMicros: value === null ? null : Math.round(value * 1e6),
        currency,
        externalId,
        occurredAt: input.occurredAt ?? now,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      // the same external id recorded at the same moment by another request: that one is the conversion
      const other = (await earlier())!;
      return { id: other.id, event: other.event, attributed: attributionOf(other), created: false };
    }
    const code =
      row.linkId === null ? null : ((await tx.select({ code: links.code }).from(links).where(eq(links.id, row.linkId)))[0]?.code ?? null);
    await queuePostbacks(tx, { config: deps.config, now }, ownerId, conversionFacts(row, code));
    return { id: row.id, event: row.event, attributed: attributionOf(row), created: true };
  });
}

/** A conversion as its owner sees it in a list. */
export interface ConversionView {
  id: number;
  event: string;
  click_id: string | null;
  tg_user_id: number | null;
  value: number | null;
  currency: string | null;
  external_id: string | null;
  attributed: Attribution | null;
  occurred_at: string;
}

/** The owner's conversions, newest first; only those of one link, invite or placement when given. */
export async function listConversions(
  deps: Pick<Deps, "asyncDb">,
  ownerId: number,
  q: { linkId?: number; inviteId?: number; placementId?: number; event?: string; limit?: number; offset?: number } = {},
): Promise<ConversionView[]> {
  const { conversions } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select()
    .from(conversions)
    .where(
      and(
        eq(conversions.userId, ownerId),
        q.linkId !== undefined ? eq(conversions.linkId, q.linkId) : undefined,
        q.inviteId !== undefined ? eq(conversions.inviteId, q.inviteId) : undefined,
        q.placementId !== undefined ? eq(conversions.placementId, q.placementId) : undefined,
        q.event !== undefined ? eq(conversions.event, q.event) : undefined,
      ),
    )
    .orderBy(desc(conversions.occurredAt), desc(conversions.id))
    .limit(q.limit ?? 50)
    .offset(q.offset ?? 0);
  return rows.map((r) => ({
    id: r.id,
    event: r.event,
    click_id: r.clickId,
    tg_user_id: r.tgUserId,
    value: amountOf(r.valueMicros),
    currency: r.currency,
    external_id: r.externalId,
    attributed: attributionOf(r),
    occurred_at: r.occurredAt.toISOString(),
  }));
}
