import { t } from "elysia";

const nullableString = (maxLength: number) => t.Optional(t.Nullable(t.String({ maxLength })));
const ids = t.Optional(t.Nullable(t.Array(t.Number(), { maxItems: 100 })));

/**
 * t.Number, not t.Integer: Elysia coerces "10" into an integer field, and wrong types must be 400.
 * No `minimum` on the numbers either: inside a Nullable its error reads "should be one of: 'number',
 * 'null'" for a 0; the core refuses out-of-range values with a message that says what is wanted.
 */
/** Shared by create and edit; the core validates the meaning (URLs, dates, ownership). */
const linkFields = {
  url: nullableString(4096),
  title: nullableString(1000),
  utm_source: nullableString(1000),
  utm_medium: nullableString(1000),
  utm_campaign: nullableString(1000),
  tagIds: ids,
  starts_at: nullableString(64),
  expires_at: nullableString(64),
  expired_url: nullableString(4096),
  max_clicks: t.Optional(t.Nullable(t.Number())),
  password: nullableString(1000),
  ios_url: nullableString(4096),
  android_url: nullableString(4096),
  desktop_url: nullableString(4096),
  pixelIds: ids,
  domain_id: t.Optional(t.Nullable(t.Number())),
  webhook_url: nullableString(4096),
  webhook_method: t.Optional(t.Nullable(t.Union([t.Literal("GET"), t.Literal("POST")]))),
  // checked in core, so that each problem names its place (rules[3].if.country)
  rules: t.Optional(t.Unknown({ description: 'ordered redirect rules, first match wins, at most 20: [{"if": {country?, language?, os?, device?, from?, to?, query?}, "url"}]; null or [] removes them' })),
  variants: t.Optional(t.Unknown({ description: 'A/B split of the visitors no rule caught: 2–10 of {"url", "weight": 1–100}; null or [] removes it' })),
};

/** Page size of GET /api/links: by default and at most. */
export const LIST_DEFAULT = 100;
export const LIST_MAX = 1000;

export const LinkModel = {
  create: t.Object({ ...linkFields, url: t.String({ minLength: 1, maxLength: 4096 }), code: t.Optional(t.Nullable(t.String({ maxLength: 64 }))) }),
  edit: t.Object({
    ...linkFields,
    webhook_enabled: t.Optional(t.Nullable(t.Boolean())),
    is_active: t.Optional(t.Nullable(t.Boolean())),
  }),
  /** no length cap per url: an over-long one is a `failed` entry (spec rule 2); the body limit bounds the list */
  bulk: t.Object({ urls: t.Array(t.String(), { minItems: 1, maxItems: 100 }) }),
  idParams: t.Object({ id: t.Numeric({ minimum: 1 }) }),
  /** GET /api/links/:id/placements: where the link was posted, as the owner's watch_links trackers saw it */
  placements: t.Object({
    channels: t.Integer({ description: "distinct chats the link was posted in" }),
    posts: t.Integer({ description: "posts carrying the link" }),
    items: t.Array(t.Object({
      source_chat_id: t.String(),
      source_title: t.Nullable(t.String()),
      source_username: t.Nullable(t.String()),
      source_message_id: t.Integer(),
      post_url: t.Nullable(t.String()),
      detected_at: t.String({ format: "date-time" }),
    }), { description: "the newest 50 posts, newest first" }),
  }),
  /** GET /api/links: the spec's `tags` filter plus paging and search (the answer stays an array; X-Total-Count has the total) */
  listQuery: t.Object({
    // positive whole numbers of at most 15 digits (exact in a double); empty means no filter
    tags: t.Optional(t.String({ pattern: "^\\s*[1-9]\\d{0,14}(\\s*,\\s*[1-9]\\d{0,14}){0,99}\\s*$|^\\s*$", error: "must be up to 100 comma-separated tag ids (positive whole numbers), e.g. 1,2" })),
    q: t.Optional(t.String({ maxLength: 200, error: "must be at most 200 characters" })),
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: LIST_MAX, multipleOf: 1, default: LIST_DEFAULT, description: `page size, default ${LIST_DEFAULT}, at most ${LIST_MAX}`, error: `must be a whole number from 1 to ${LIST_MAX}` })),
    // whole numbers SQLite can bind: a fraction or a huge offset would fail in the query (500)
    offset: t.Optional(t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, default: 0, error: "must be a whole number, 0 or more" })),
  }),
};

export const CatalogModel = {
  tag: t.Object({ name: t.String({ minLength: 1, maxLength: 50 }) }),
  pixel: t.Object({
    name: t.String({ minLength: 1, maxLength: 100 }),
    type: t.Union(["facebook", "google", "tiktok", "yandex", "vk"].map((v) => t.Literal(v))),
    pixelId: t.String({ minLength: 1, maxLength: 64 }),
  }),
  domain: t.Object({ hostname: t.String({ minLength: 1, maxLength: 253 }) }),
  /** a custom domain as every domain route answers it */
  domainView: t.Object({
    id: t.Number(),
    hostname: t.String(),
    verified: t.Boolean(),
    verifiedAt: t.Nullable(t.String({ format: "date-time" })),
    verification: t.Object({ type: t.Literal("TXT"), name: t.String(), value: t.String() }, { description: "publish this DNS record, then call verify" }),
    createdAt: t.String({ format: "date-time" }),
  }),
  idParams: t.Object({ id: t.Numeric({ minimum: 1 }) }),
};
