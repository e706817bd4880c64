import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { parseDate } from "../links/when";
import type { InviteCost } from "../../db/schema";
import { isCurrencyCode } from "../currency";

/** What an invite is created or edited with (the API's body; the bot builds the same). */
export interface InviteInput {
  name?: string;
  join_request?: boolean;
  approve?: "auto" | "manual";
  welcome?: string | null;
  expires_at?: string | null;
  member_limit?: number | null;
  cost?: InviteCost | null;
  link?: boolean;
}

/** Telegram's limits on an invite link. */
const INVITE_NAME_MAX = 32;
const MEMBER_LIMIT_MAX = 99_999;
const WELCOME_MAX = 1000;

/** The checked values of an invite input (only the keys it mentioned). */
export interface InvitePatch {
  name?: string;
  joinRequest?: boolean;
  approve?: "auto" | "manual";
  welcome?: string | null;
  expiresAt?: Date | null;
  memberLimit?: number | null;
  cost?: InviteCost | null;
}

/**
 * Checks an invite's fields before Telegram is asked, so a bad value is a 400 that changes nothing:
 * a name of 1–32 characters, a member limit of 1–99,999 and never with join requests (Telegram
 * refuses both together), a welcome of at most 1,000 characters, an expiry in the future, a cost
 * of a non-negative amount in an ISO 4217 currency. `existing` is the invite being edited.
 */
export function checkInviteInput(
  deps: Pick<Deps, "clock">,
  input: InviteInput,
  existing?: { joinRequest: boolean; memberLimit: number | null; expiresAt: Date | null },
): InvitePatch {
  const patch: InvitePatch = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw new FieldError("name", "must not be empty");
    if ([...name].length > INVITE_NAME_MAX)
      throw new FieldError("name", `must be at most ${INVITE_NAME_MAX} characters (Telegram's limit)`);
    patch.name = name;
  } else if (!existing) throw new FieldError("name", "is required");
  if (input.join_request !== undefined) patch.joinRequest = input.join_request;
  if (input.approve !== undefined) patch.approve = input.approve;
  if (input.welcome !== undefined) {
    const welcome = input.welcome?.trim() || null;
    if (welcome && welcome.length > WELCOME_MAX) throw new FieldError("welcome", `must be at most ${WELCOME_MAX} characters`);
    patch.welcome = welcome;
  }
  if (input.member_limit !== undefined) {
    const n = input.member_limit;
    if (n !== null && (!Number.isInteger(n) || n < 1 || n > MEMBER_LIMIT_MAX))
      throw new FieldError("member_limit", `must be a whole number from 1 to ${MEMBER_LIMIT_MAX}`);
    patch.memberLimit = n;
  }
  const joinRequest = patch.joinRequest ?? existing?.joinRequest ?? false;
  const memberLimit = patch.memberLimit !== undefined ? patch.memberLimit : (existing?.memberLimit ?? null);
  if (joinRequest && memberLimit !== null)
    throw new FieldError("member_limit", "cannot be set on a link with join requests: Telegram refuses the two together");
  if (input.expires_at !== undefined) {
    const d = input.expires_at === null ? null : parseDate(input.expires_at);
    if (input.expires_at !== null && !d) throw new FieldError("expires_at", "must be an ISO 8601 date-time, e.g. 2026-05-01T12:00:00Z");
    if (d && d.getTime() <= deps.clock.now().getTime() && d.getTime() !== existing?.expiresAt?.getTime())
      throw new FieldError("expires_at", "must be in the future");
    patch.expiresAt = d;
  }
  if (input.cost !== undefined) {
    const cost = input.cost;
    if (cost !== null) {
      if (typeof cost.amount !== "number" || !Number.isFinite(cost.amount) || cost.amount < 0)
        throw new FieldError("cost.amount", "must be a number of at least 0");
      const currency = String(cost.currency ?? "").toUpperCase();
      if (!isCurrencyCode(currency)) throw new FieldError("cost.currency", "must be an ISO 4217 currency code, e.g. USD, EUR or RUB");
      patch.cost = { amount: cost.amount, currency };
    } else patch.cost = null;
  }
  return patch;
}
