import { t, type Static } from "elysia";
import { ANY_PIXEL_ID_PATTERN, PIXEL_TYPES } from "../../core/catalog/pixels";
import { RULE_DEVICES, RULE_OS } from "../../core/links/routing-input";
import { LINK_TEXT_MAX } from "../../core/links/validate";
import { DOCUMENTED_PATTERN, DateTime, IdParams, OneOf, Url, formatted } from "../shared/models";

const nullableString = (maxLength: number) => t.Optional(t.Nullable(t.String({ maxLength })));
/** A text field whose limit core checks too: the same limit, refused in the same words. */
const linkText = t.Optional(t.Nullable(t.String({ maxLength: LINK_TEXT_MAX, error: `must be at most ${LINK_TEXT_MAX} characters` })));
const nullableUrl = t.Optional(t.Nullable(Url({ maxLength: 4096 })));
const ids = t.Optional(t.Nullable(t.Array(t.Number(), { maxItems: 100 })));

/**
 * t.Number, not t.Integer: Elysia coerces "10" into an integer field, and wrong types must be 400.
 * No `minimum` on the numbers either: inside a Nullable its error reads "should be one of: 'number',
 * 'null'" for a 0; the core refuses out-of-range values with a message that says what is wanted.
 */
/** Shared by create and edit; the core validates the meaning (URLs, dates, ownership). */
const linkFields = {
  url: nullableString(4096),
  title: linkText,
  utm_source: linkText,
  utm_medium: linkText,
  utm_campaign: linkText,
  tagIds: ids,
  starts_at: nullableString(64),
  expires_at: nullableString(64),
  expired_url: nullableUrl,
  max_clicks: t.Optional(t.Nullable(t.Number())),
  password: nullableString(1000),
  ios_url: nullableUrl,
  android_url: nullableUrl,
  desktop_url: nullableUrl,
  pixelIds: ids,
  domain_id: t.Optional(t.Nullable(t.Number())),
  webhook_url: nullableUrl,
  webhook_method: t.Optional(t.Nullable(t.Union([t.Literal("GET"), t.Literal("POST")]))),
  // checked in core, so that each problem names its place (rules[3].if.country)
  rules: t.Optional(
    t.Unknown({
      description:
        'ordered redirect rules, first match wins, at most 20: [{"if": {country?, language?, os?, device?, from?, to?, query?}, "url"}]; null or [] removes them',
    }),
  ),
  variants: t.Optional(
    t.Unknown({ description: 'A/B split of the visitors no rule caught: 2–10 of {"url", "weight": 1–100}; null or [] removes it' }),
  ),
};

/** Page size of GET /api/links: by default and at most. */
export const LIST_DEFAULT = 100;
export const LIST_MAX = 1000;

export const LinkModel = {
  create: t.Object({
    ...linkFields,
    url: Url({ minLength: 1, maxLength: 4096 }),
    code: t.Optional(t.Nullable(t.String({ maxLength: 64 }))),
  }),
  edit: t.Object({
    ...linkFields,
    webhook_enabled: t.Optional(t.Nullable(t.Boolean())),
    is_active: t.Optional(t.Nullable(t.Boolean())),
  }),
  /** no length cap per url: an over-long one is a `failed` entry (spec rule 2); the body limit bounds the list */
  bulk: t.Object({ urls: t.Array(t.String(), { minItems: 1, maxItems: 100 }) }),
  idParams: IdParams,
  /** GET /api/links/:id/placements: where the link was posted, as the owner's watch_links trackers saw it */
  placements: t.Object({
    channels: t.Integer({ description: "distinct chats the link was posted in" }),
    posts: t.Integer({ description: "posts carrying the link" }),
    items: t.Array(
      t.Object({
        source_chat_id: t.String(),
        source_title: t.Nullable(t.String()),
        source_username: t.Nullable(t.String()),
        source_message_id: t.Integer(),
        post_url: t.Nullable(t.String()),
        detected_at: t.String({ format: "date-time" }),
      }),
      { description: "the newest 50 posts, newest first" },
    ),
  }),
  /** GET /api/links: the spec's `tags` filter plus paging and search (the answer stays an array; X-Total-Count has the total) */
  listQuery: t.Object({
    // positive whole numbers of at most 15 digits (exact in a double); empty means no filter
    tags: t.Optional(
      t.String({
        pattern: "^\\s*[1-9]\\d{0,14}(\\s*,\\s*[1-9]\\d{0,14}){0,99}\\s*$|^\\s*$",
        error: "must be up to 100 comma-separated tag ids (positive whole numbers), e.g. 1,2",
      }),
    ),
    q: t.Optional(t.String({ maxLength: 200, error: "must be at most 200 characters" })),
    limit: t.Optional(
      t.Numeric({
        minimum: 1,
        maximum: LIST_MAX,
        multipleOf: 1,
        default: LIST_DEFAULT,
        description: `page size, default ${LIST_DEFAULT}, at most ${LIST_MAX}`,
        error: `must be a whole number from 1 to ${LIST_MAX}`,
      }),
    ),
    // whole numbers SQLite can bind: a fraction or a huge offset would fail in the query (500)
    offset: t.Optional(
      t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, default: 0, error: "must be a whole number, 0 or more" }),
    ),
  }),
};

export const CatalogModel = {
  tag: t.Object({ name: t.String({ minLength: 1, maxLength: 50 }) }),
  pixel: t.Object({
    name: t.String({ minLength: 1, maxLength: 100 }),
    type: OneOf(PIXEL_TYPES),
    pixelId: t.String({ minLength: 1, maxLength: 64, [DOCUMENTED_PATTERN]: ANY_PIXEL_ID_PATTERN }),
  }),
  domain: t.Object({ hostname: formatted("hostname", { minLength: 1, maxLength: 253 }) }),
  /** a custom domain as every domain route answers it */
  domainView: t.Object({
    id: t.Integer(),
    hostname: formatted("hostname"),
    verified: t.Boolean(),
    verifiedAt: t.Nullable(t.String({ format: "date-time" })),
    verification: t.Object(
      { type: t.Literal("TXT"), name: t.String(), value: t.String() },
      { description: "publish this DNS record, then call verify" },
    ),
    createdAt: t.String({ format: "date-time" }),
  }),
  idParams: IdParams,
  tagView: t.Object({ id: t.Integer(), name: t.String(), createdAt: DateTime() }),
  pixelView: t.Object({ id: t.Integer(), name: t.String(), type: t.UnionEnum(PIXEL_TYPES), pixelId: t.String(), createdAt: DateTime() }),
};

const stats = t.Object({ totalClicks: t.Integer(), uniqueClicks: t.Integer(), botClicks: t.Integer() });
const ruleConditions = t.Object({
  country: t.Optional(t.Array(t.String({ description: "ISO 3166-1 alpha-2, upper case" }))),
  language: t.Optional(t.Array(t.String({ description: "primary language subtag, lower case" }))),
  os: t.Optional(t.Array(t.UnionEnum(RULE_OS))),
  device: t.Optional(t.Array(t.UnionEnum(RULE_DEVICES))),
  from: t.Optional(DateTime("inclusive")),
  to: t.Optional(DateTime("exclusive")),
  query: t.Optional(t.Record(t.String(), t.String())),
});

/** What the links routes answer. */
export const LinkViews = {
  /** the create/edit answer */
  summary: t.Object({ id: t.Integer(), code: t.String(), trackingUrl: Url(), original_url: Url(), title: t.Nullable(t.String()) }),
  stats,
  rule: t.Object({ if: ruleConditions, url: Url() }),
  variant: t.Object({ url: Url(), weight: t.Integer({ minimum: 1, maximum: 100 }) }),
  bulk: t.Object({
    created: t.Integer(),
    errors: t.Integer(),
    results: t.Array(t.Object({ url: t.String(), trackingUrl: Url(), code: t.String(), id: t.Integer() })),
    failed: t.Array(t.Object({ url: t.String(), error: t.String() })),
  }),
};

const summaryFields = LinkViews.summary.properties;

/** One item of GET /api/links. */
export const LinkListItemModel = t.Object({
  ...summaryFields,
  is_active: t.Boolean(),
  tagIds: t.Array(t.Integer()),
  created_at: DateTime(),
  stats,
});

/** GET /api/links/:id: every stored field (never the password), webhook state and counters. */
export const LinkDetailsModel = t.Object({
  ...summaryFields,
  utm_source: t.Nullable(t.String()),
  utm_medium: t.Nullable(t.String()),
  utm_campaign: t.Nullable(t.String()),
  tagIds: t.Array(t.Integer()),
  pixelIds: t.Array(t.Integer()),
  starts_at: t.Nullable(DateTime()),
  expires_at: t.Nullable(DateTime()),
  expired_url: t.Nullable(Url()),
  max_clicks: t.Nullable(t.Integer()),
  has_password: t.Boolean(),
  ios_url: t.Nullable(Url()),
  android_url: t.Nullable(Url()),
  desktop_url: t.Nullable(Url()),
  domain_id: t.Nullable(t.Integer()),
  webhook_url: t.Nullable(Url()),
  webhook_method: t.Union([t.Literal("GET"), t.Literal("POST")]),
  webhook_enabled: t.Boolean(),
  webhook_failures: t.Integer(),
  is_active: t.Boolean(),
  rules: t.Array(LinkViews.rule),
  variants: t.Array(LinkViews.variant),
  stats,
  created_at: DateTime(),
  updated_at: DateTime(),
});

export type LinkListItem = Static<typeof LinkListItemModel>;
export type LinkDetails = Static<typeof LinkDetailsModel>;
export type Tag = Static<typeof CatalogModel.tagView>;
export type Domain = Static<typeof CatalogModel.domainView>;
export type BulkResult = Static<typeof LinkViews.bulk>;
