import { t, type Static } from "elysia";
import { DateTime, IdParams, Url } from "../shared/models";

const nullableString = t.Optional(t.Nullable(t.String()));
const nullableList = t.Optional(t.Nullable(t.Array(t.String())));

const fields = {
  name: t.String(),
  keyword: t.String(),
  exact_match: t.Optional(t.Boolean()),
  syntax: t.Optional(t.Union([t.Literal("plain"), t.Literal("query")])),
  word_forms: t.Optional(t.Boolean()),
  skip_reposts: t.Optional(t.Boolean()),
  watch_links: t.Optional(t.Boolean()),
  minus_words: nullableList,
  search_channels: t.Optional(t.Boolean()),
  search_chats: t.Optional(t.Boolean()),
  filter_geo: nullableString,
  filter_language: nullableString,
  filter_category: nullableString,
  filter_min_subscribers: t.Optional(t.Nullable(t.Integer())),
  include_sources: nullableList,
  exclude_sources: nullableList,
  notify_via: t.Optional(t.Union([t.Literal("bot"), t.Literal("webhook"), t.Literal("chat")])),
  notify_chat_id: t.Optional(t.Nullable(t.Union([t.String(), t.Integer()]))),
  notify_thread_id: t.Optional(t.Nullable(t.Integer())),
  notify_every: t.Optional(t.Union([t.Literal("instant"), t.Literal("hour"), t.Literal("day")])),
  webhook_url: t.Optional(t.Nullable(Url())),
  notify_on_delete: t.Optional(t.Boolean()),
};

/** Types only: lengths, codes and cross-field rules are checked by core (shared with the bot). */
export const TrackingModel = {
  create: t.Object({ ...fields, is_enabled: t.Optional(t.Boolean()) }),
  patch: t.Partial(t.Object({ ...fields, is_enabled: t.Boolean() })),
  idParams: IdParams,
  matchesQuery: t.Object({
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: 100, multipleOf: 1, default: 20 })),
    // whole numbers SQLite can bind: a fraction or a huge offset would fail in the query (500)
    offset: t.Optional(t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, default: 0 })),
  }),
};

const labelled = t.Array(t.Object({ code: t.String(), label: t.String() }));
const strings = t.Nullable(t.Array(t.String()));

/** What the tracking routes answer. */
export const TrackingViews = {
  tracker: t.Object({
    id: t.Integer(),
    name: t.String(),
    keyword: t.String(),
    exact_match: t.Boolean(),
    syntax: t.UnionEnum(["plain", "query"]),
    word_forms: t.Boolean(),
    skip_reposts: t.Boolean(),
    watch_links: t.Boolean(),
    minus_words: strings,
    search_channels: t.Boolean(),
    search_chats: t.Boolean(),
    filter_geo: t.Nullable(t.String()),
    filter_language: t.Nullable(t.String()),
    filter_category: t.Nullable(t.String()),
    filter_min_subscribers: t.Nullable(t.Integer()),
    include_sources: strings,
    exclude_sources: strings,
    notify_via: t.UnionEnum(["bot", "webhook", "chat"]),
    notify_chat_id: t.Nullable(t.String()),
    notify_thread_id: t.Nullable(t.Integer()),
    notify_every: t.UnionEnum(["instant", "hour", "day"]),
    webhook_url: t.Nullable(Url()),
    notify_on_delete: t.Boolean(),
    is_enabled: t.Boolean(),
    total_matches: t.Integer(),
    created_at: DateTime(),
  }),
  limits: t.Object({ current: t.Integer(), max: t.Integer(), plan: t.String() }),
  filters: t.Object({ geo: labelled, languages: labelled, categories: labelled }),
  matches: t.Object({
    items: t.Array(
      t.Object({
        id: t.Integer(),
        tracker_id: t.Integer(),
        source_title: t.Nullable(t.String()),
        source_username: t.Nullable(t.String()),
        source_message_id: t.Integer(),
        text_snippet: t.Nullable(t.String()),
        matched_keyword: t.Nullable(t.String()),
        post_url: t.Nullable(Url()),
        is_deleted: t.Boolean(),
        no_longer_matches: t.Boolean({ description: "the post was edited and no longer matches; the snippet shows the edited text" }),
        is_read: t.Boolean(),
        detected_at: DateTime(),
      }),
    ),
    total: t.Integer(),
  }),
  unread: t.Object({ count: t.Integer() }),
};

export type Tracker = Static<typeof TrackingViews.tracker>;
export type TrackingFilters = Static<typeof TrackingViews.filters>;
