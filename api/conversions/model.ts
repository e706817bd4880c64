import { t } from "elysia";
import { DateTime, Int, Url, Words } from "../shared/models";
import { EVENT_NAME_PATTERN, MAX_EXTERNAL_ID, MAX_VALUE } from "../../core/conversions/events";
import { MAX_KEY_NAME } from "../../core/conversions/keys";
import { MAX_POSTBACK_EVENTS, MAX_POSTBACK_URL } from "../../core/conversions/postbacks";

const Id = (description?: string) => t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...(description ? { description } : {}) });
const QueryId = (what: string) =>
  t.Optional(
    t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: `must be a ${what} id (a whole number, 1 or more)` }),
  );

const Attribution = t.Nullable(t.Object({ link_id: t.Nullable(Int()), placement_id: t.Nullable(Int()), invite_id: t.Nullable(Int()) }), {
  description: "what the conversion was attributed to; null: nothing (an unknown or another account's click, no join)",
});

/** Conversion figures of a link, invite or placement. */
export const ConversionStatsModel = t.Object({
  count: Int(),
  value: t.Record(t.String(), t.Number(), { description: "the sum of values by currency" }),
  by_event: t.Record(t.String(), Int(), { description: "how many of each event" }),
});

const fields = {
  click_id: t.Optional(t.Nullable(t.String({ minLength: 1, maxLength: 64, description: "the click id the target received ({click_id})" }))),
  value: t.Optional(t.Nullable(t.Number({ minimum: 0, maximum: MAX_VALUE }))),
  currency: t.Optional(t.Nullable(t.String({ minLength: 3, maxLength: 3, description: "ISO 4217, or XTR for Telegram Stars" }))),
  external_id: t.Optional(
    t.Nullable(t.String({ minLength: 1, maxLength: MAX_EXTERNAL_ID, description: "your id: the same one twice is one conversion" })),
  ),
};

export const ConversionsModel = {
  create: t.Object({
    event: t.String({ pattern: EVENT_NAME_PATTERN, description: "start, lead, purchase… (join is recorded by the service)" }),
    ...fields,
    tg_user_id: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))),
    occurred_at: t.Optional(t.Nullable(DateTime())),
  }),
  created: t.Object({ id: Int(), event: t.String(), attributed: Attribution }),
  getQuery: t.Object({
    event: t.String({ pattern: EVENT_NAME_PATTERN }),
    click_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
    value: t.Optional(t.Numeric({ minimum: 0, maximum: MAX_VALUE })),
    currency: t.Optional(t.String({ minLength: 3, maxLength: 3 })),
    external_id: t.Optional(t.String({ minLength: 1, maxLength: MAX_EXTERNAL_ID })),
    tg_user_id: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1 })),
  }),
  keyParams: t.Object({ key: t.String({ minLength: 1, maxLength: 100 }) }),
  listQuery: t.Object({
    link_id: QueryId("link"),
    invite_id: QueryId("invite"),
    placement_id: QueryId("placement"),
    event: t.Optional(t.String({ pattern: EVENT_NAME_PATTERN })),
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1, default: 50, error: "must be a whole number from 1 to 200" })),
    offset: t.Optional(
      t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, default: 0, error: "must be a whole number, 0 or more" }),
    ),
  }),
  statsQuery: t.Object({
    link_id: QueryId("link"),
    invite_id: QueryId("invite"),
    placement_id: QueryId("placement"),
    from: t.Optional(DateTime()),
    to: t.Optional(DateTime()),
  }),
  conversion: t.Object({
    id: Int(),
    event: t.String(),
    click_id: t.Nullable(t.String()),
    tg_user_id: t.Nullable(Int()),
    value: t.Nullable(t.Number()),
    currency: t.Nullable(t.String()),
    external_id: t.Nullable(t.String()),
    attributed: Attribution,
    occurred_at: DateTime(),
  }),
};

const keyView = {
  id: Int(),
  name: t.String(),
  prefix: t.String({ description: "the key's first characters, to tell keys apart" }),
  created_at: DateTime(),
  revoked_at: t.Nullable(DateTime()),
};

export const PostbackKeysModel = {
  create: t.Object({ name: t.String({ minLength: 1, maxLength: MAX_KEY_NAME }) }),
  key: t.Object(keyView),
  created: t.Object({
    ...keyView,
    key: t.String({ description: "shown this once" }),
    url: Url({ description: "the GET postback URL: add ?event=…&click_id=…&value=…&currency=…&external_id=…" }),
  }),
};

const Events = t.Array(t.String({ minLength: 1, maxLength: 40 }), {
  minItems: 1,
  maxItems: MAX_POSTBACK_EVENTS,
  description: "click, join_request, join, leave, conversion events such as purchase, or * for every event",
});
const scope = {
  link_id: t.Optional(t.Nullable(Id("only this link's events"))),
  placement_id: t.Optional(t.Nullable(Id("only this placement's events"))),
};

export const PostbacksModel = {
  create: t.Union([
    t.Object({
      url: t.String({
        minLength: 1,
        maxLength: MAX_POSTBACK_URL,
        description: "a URL template with macros such as {click_id}, {event}, {value}",
      }),
      method: t.Optional(t.UnionEnum(["GET", "POST"])),
      events: Events,
      ...scope,
    }),
    t.Object({
      kind: t.Literal("meta"),
      pixel_id: t.String({ minLength: 1, maxLength: 30 }),
      access_token: t.String({ minLength: 1, maxLength: 500 }),
      events: Events,
      ...scope,
    }),
  ]),
  postback: t.Object({
    id: Int(),
    kind: t.UnionEnum(["url", "meta"]),
    url: t.Nullable(t.String()),
    method: t.UnionEnum(["GET", "POST"]),
    events: t.Array(t.String()),
    link_id: t.Nullable(Int()),
    placement_id: t.Nullable(Int()),
    pixel_id: t.Nullable(t.String()),
    created_at: DateTime(),
  }),
  testResult: t.Object({
    ok: t.Boolean(),
    status: t.Optional(Int({ description: "the target's HTTP status" })),
    error: t.Optional(t.String()),
    kind: t.Optional(
      Words(["status", "timeout", "network", "refused", "invalid"], {
        description:
          "why it failed: status (the target answered outside 2xx), timeout, network (not reached), refused (an internal address), invalid (not a usable URL)",
      }),
    ),
    body: t.Optional(t.String({ description: "the start of the target's answer" })),
    delivery_id: t.String(),
  }),
  deliveriesQuery: t.Object({
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: 100, multipleOf: 1, default: 20, error: "must be a whole number from 1 to 100" })),
  }),
  delivery: t.Object({
    id: t.String(),
    event: t.String(),
    url: t.String({ description: "the postback's URL template (or the Meta endpoint)" }),
    method: t.String(),
    status: t.UnionEnum(["pending", "sending", "done", "failed", "cancelled"]),
    attempts: Int(),
    last_error: t.Nullable(t.String()),
    created_at: DateTime(),
    completed_at: t.Nullable(DateTime()),
  }),
};
