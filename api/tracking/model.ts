import { t } from "elysia";

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
  webhook_url: nullableString,
  notify_on_delete: t.Optional(t.Boolean()),
};

/** Types only: lengths, codes and cross-field rules are checked by core (shared with the bot). */
export const TrackingModel = {
  create: t.Object({ ...fields, is_enabled: t.Optional(t.Boolean()) }),
  patch: t.Partial(t.Object({ ...fields, is_enabled: t.Boolean() })),
  idParams: t.Object({ id: t.Numeric({ minimum: 1 }) }),
  matchesQuery: t.Object({
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: 100, multipleOf: 1, default: 20 })),
    // whole numbers SQLite can bind: a fraction or a huge offset would fail in the query (500)
    offset: t.Optional(t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, default: 0 })),
  }),
};
