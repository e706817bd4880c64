/**
 * A placement's fields as the API and the bot give them, checked before anything is written: a
 * bad value is a 400 naming the field that changes nothing.
 */
import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { parseDate } from "../links/when";
import { getSettings } from "../reports/settings";
import { workspaceCurrency } from "../workspaces/currency";
import type { Post } from "../ads/post";
import { parsePrice, type Price } from "./price";
import { NAME_MAX, parsePostUrl, parseVenue, type Venue } from "./venue";
import { isCurrencyCode } from "../currency";

/** What a placement is created or edited with (the API's body in camelCase; the bot builds the same). */
export interface PlacementInput {
  /** `@username`, a `t.me/…` link or free text (required on create) */
  venue?: string;
  name?: string;
  /** when the ad runs: an ISO 8601 date-time (UTC without an offset), a date (its midnight in the account's zone), or a Date */
  publishAt?: string | Date | null;
  /** `{amount, currency}`, or a price as people write it (`5 000 ₽`, `$50`, `5000`: the account's currency) */
  cost?: Price | string | null;
  /** the ad post to rewrite for this placement (create only) */
  post?: Post;
  /** channels to make one new invite each in (create only, without `post`) */
  channelIds?: number[];
  /** t.me/<channel>/<id> of the ad post */
  postUrl?: string | null;
  notes?: string | null;
  /** the post's views typed by hand (edit only) */
  views?: number;
}

const NOTES_MAX = 1000;
/** the largest price taken: a trillion in any currency (a typo such as 1e300 is refused, not divided) */
const MAX_PRICE = 1e12;
/** the dates an ad can run on: a year typed wrong (0202, 9999) is refused rather than stored */
const PUBLISH_FROM = Date.UTC(2000, 0, 1);
const PUBLISH_UNTIL = Date.UTC(2100, 0, 1);

/** The checked values (only the keys the input mentioned). */
export interface PlacementPatch {
  venue?: Venue;
  name?: string;
  publishAt?: Date | null;
  cost?: Price | null;
  postUrl?: string | null;
  notes?: string | null;
  views?: number;
}

async function costOf(deps: Pick<Deps, "asyncDb">, userId: number, cost: Price | string): Promise<Price> {
  if (typeof cost === "string") {
    let price: Price;
    try {
      price = parsePrice(cost, (await workspaceCurrency(deps, userId)).effective);
    } catch {
      throw new FieldError("cost", `"${cost}" is not a price: e.g. 5000 RUB, 5 000 ₽, $50 or 5000 (your default currency)`);
    }
    if (price.amount > MAX_PRICE) throw new FieldError("cost", `must be at most ${MAX_PRICE.toLocaleString("en")}`);
    return price;
  }
  if (typeof cost.amount !== "number" || !Number.isFinite(cost.amount) || cost.amount < 0 || cost.amount > MAX_PRICE)
    throw new FieldError("cost.amount", `must be a number from 0 to ${MAX_PRICE.toLocaleString("en")}`);
  const currency = String(cost.currency ?? "").toUpperCase();
  if (!isCurrencyCode(currency)) throw new FieldError("cost.currency", "must be an ISO 4217 currency code, e.g. USD, EUR or RUB");
  return { amount: Math.round(cost.amount * 100) / 100, currency };
}

/** Checks the fields an input mentions; `venue` is read with any post URL it carries. */
export async function checkPlacementInput(deps: Pick<Deps, "asyncDb">, userId: number, input: PlacementInput): Promise<PlacementPatch> {
  const patch: PlacementPatch = {};
  if (input.venue !== undefined) {
    const read = parseVenue(String(input.venue));
    patch.venue = read.venue;
    if (read.postUrl && input.postUrl === undefined) patch.postUrl = read.postUrl;
  }
  if (input.name !== undefined) {
    const name = String(input.name).trim();
    if (!name || name.length > NAME_MAX) throw new FieldError("name", `must be 1–${NAME_MAX} characters`);
    patch.name = name;
  }
  if (input.publishAt === null) patch.publishAt = null;
  else if (input.publishAt !== undefined) {
    // a bare date is that day in the account's time zone (the default name shows its day); a value
    // that is not a date is refused, never read as "no date" (a typo must not erase the one stored)
    const when =
      input.publishAt instanceof Date ? input.publishAt : parseDate(String(input.publishAt), (await getSettings(deps, userId)).time_zone);
    if (!when || !(when.getTime() >= PUBLISH_FROM && when.getTime() < PUBLISH_UNTIL))
      throw new FieldError("publish_at", "must be a date or date-time between 2000 and 2099, e.g. 2026-12-01 or 2026-12-01T18:00:00Z");
    patch.publishAt = when;
  }
  if (input.cost !== undefined) patch.cost = input.cost === null ? null : await costOf(deps, userId, input.cost);
  if (input.postUrl !== undefined)
    patch.postUrl = input.postUrl === null || input.postUrl === "" ? null : parsePostUrl(String(input.postUrl)).url;
  if (input.notes !== undefined) {
    const notes = input.notes === null ? null : String(input.notes).trim();
    if (notes !== null && notes.length > NOTES_MAX) throw new FieldError("notes", `must be at most ${NOTES_MAX} characters`);
    patch.notes = notes || null;
  }
  if (input.views !== undefined) {
    if (typeof input.views !== "number" || !Number.isInteger(input.views) || input.views < 0)
      throw new FieldError("views", "must be a whole number of at least 0");
    patch.views = input.views;
  }
  return patch;
}
