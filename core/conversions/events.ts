/**
 * The events of conversions and postbacks. `click`, `join_request`, `join` and `leave` are recorded
 * by the service itself; any other name (`start`, `lead`, `purchase`…) is a conversion event that an
 * advertiser reports. A postback sent for `*` is sent for every event.
 */
export const SERVICE_EVENTS = ["click", "join_request", "join", "leave"] as const;
export const ANY_EVENT = "*";
/** A conversion event's name: lower-case letters, digits and `_`, starting with a letter. */
export const EVENT_NAME = /^[a-z][a-z0-9_]{0,39}$/;
export const EVENT_NAME_PATTERN = EVENT_NAME.source;
/** Longest external id, currency code and value a conversion carries. */
export const MAX_EXTERNAL_ID = 200;
export const MAX_VALUE = 1e12;

/** Which events an advertiser may report through the API (a join is recorded by the service). */
export const isReportableEvent = (event: string) => EVENT_NAME.test(event) && !(SERVICE_EVENTS as readonly string[]).includes(event);

/** Telegram Stars: not an ISO 4217 code, and a currency a Telegram purchase is made in. */
export const STARS = "XTR";

/**
 * What a postback delivery is about, kept in the outbox row: the macros are filled from it (and from
 * the click it names, read when the delivery is sent).
 */
export interface PostbackFacts {
  event: string;
  occurred_at: string;
  conversion_id: number | null;
  click_id: string | null;
  link_id: number | null;
  code: string | null;
  placement_id: number | null;
  invite_id: number | null;
  tg_user_id: number | null;
  value: number | null;
  currency: string | null;
  external_id: string | null;
}

export const noFacts = (event: string, at: Date): PostbackFacts => ({
  event,
  occurred_at: at.toISOString(),
  conversion_id: null,
  click_id: null,
  link_id: null,
  code: null,
  placement_id: null,
  invite_id: null,
  tg_user_id: null,
  value: null,
  currency: null,
  external_id: null,
});
