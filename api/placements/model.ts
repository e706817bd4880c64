import { t } from "elysia";
import { DateTime, IdParams, Int, OkModel, Url } from "../shared/models";
import { PLACEMENT_SORTS } from "../../core/placements/placements";

const nullableDate = t.Nullable(DateTime());
const cost = t.Object(
  { amount: t.Number(), currency: t.String() },
  { description: "the price of the ad: amount ≥ 0 in an ISO 4217 currency" },
);
const count = Int({ minimum: 0 });
const stayed = t.Object({
  eligible: count,
  stayed: count,
  rate: t.Nullable(t.Number()),
});
const entity = t.Object(
  { type: t.String(), offset: t.Integer({ minimum: 0 }), length: t.Integer({ minimum: 0 }), url: t.Optional(t.String()) },
  { additionalProperties: true },
);
const button = t.Object({ text: t.String(), url: t.Optional(t.String()) }, { additionalProperties: true });
const post = t.Object(
  {
    text: t.String({ maxLength: 4096 }),
    entities: t.Optional(t.Array(entity, { maxItems: 500 })),
    buttons: t.Optional(t.Object({ inline_keyboard: t.Array(t.Array(button, { maxItems: 8 }), { maxItems: 100 }) })),
  },
  { description: "an ad post as Telegram gives a message: text (or caption), its entities, and its inline keyboard" },
);
const venue = t.Union([
  t.Object({ kind: t.Literal("telegram"), username: t.String() }),
  t.Object({ kind: t.Literal("other"), title: t.String() }),
]);
const costInput = t.Union([
  cost,
  t.String({ maxLength: 40, description: "a price as written: 5000 RUB, 5 000 ₽, $50, or 5000 in your default currency" }),
]);

/** Types only: lengths, prices, URLs and ownership are checked by core (shared with the bot). */
export const PlacementsModel = {
  idParams: IdParams,
  create: t.Object({
    venue: t.String({ description: "@username, a t.me link (of the channel or of the post), or free text" }),
    name: t.Optional(t.String({ description: "default: <venue> <dd.mm> of publish_at (or today)" })),
    publish_at: t.Optional(
      t.Nullable(
        t.String({ description: "ISO 8601 date-time (UTC without an offset), or a date: its midnight in the account's time zone" }),
      ),
    ),
    cost: t.Optional(t.Nullable(costInput)),
    post: t.Optional(post),
    channel_ids: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 20, description: "without post: one new invite per channel" })),
    post_url: t.Optional(t.Nullable(t.String({ description: "t.me/<channel>/<id> of the ad post" }))),
    notes: t.Optional(t.Nullable(t.String())),
  }),
  patch: t.Object({
    venue: t.Optional(t.String()),
    name: t.Optional(t.String()),
    publish_at: t.Optional(t.Nullable(t.String())),
    cost: t.Optional(t.Nullable(costInput)),
    post_url: t.Optional(t.Nullable(t.String())),
    notes: t.Optional(t.Nullable(t.String())),
    views: t.Optional(t.Integer({ minimum: 0, description: "the post's views typed by hand (a reading now)" })),
  }),
  listQuery: t.Object({
    period: t.Optional(t.String({ description: "1d, 7d, 30d (default), 90d, 1y or all: placements dated in it" })),
    sort: t.Optional(
      t.Union(
        [...PLACEMENT_SORTS, "stayed"].map((s) => t.Literal(s)),
        {
          description:
            "a field, or a figure of stats (stayed_d7 is stayed.d7.stayed; stayed is stayed_d7); default created_at. " +
            "Amounts (cost, cpm, cpc, cost_per_join, cost_per_retained) sort within a currency: the account's first, then the others by code; no cost last",
        },
      ),
    ),
    order: t.Optional(
      t.Union([t.Literal("asc"), t.Literal("desc")], { description: "default desc; placements without the figure come last" }),
    ),
  }),
  bindLink: t.Object({ link_id: t.Integer({ minimum: 1 }) }),
  bindInvite: t.Object({ invite_id: t.Integer({ minimum: 1 }) }),
  stats: t.Object({
    views: t.Nullable(count),
    clicks: count,
    unique_clicks: count,
    joins: count,
    leaves: count,
    stayed: t.Object({ h24: stayed, d7: stayed, d30: stayed }),
    conversions: t.Object(
      {
        count,
        value: t.Record(t.String(), t.Number(), { description: "the sum of values by currency" }),
        by_event: t.Record(t.String(), Int(), { description: "how many of each event (join: joins through its invites)" }),
      },
      { description: "conversions attributed to the placement" },
    ),
    cpm: t.Nullable(t.Number()),
    cpc: t.Nullable(t.Number()),
    cost_per_join: t.Nullable(t.Number()),
    cost_per_retained: t.Nullable(t.Number()),
    roas: t.Nullable(t.Number()),
  }),
  views: t.Array(t.Object({ at: DateTime(), views: count })),
  ok: OkModel,
};

const placementFields = {
  id: Int(),
  name: t.String(),
  venue,
  publish_at: nullableDate,
  post_url: t.Nullable(t.String()),
  cost: t.Nullable(cost),
  notes: t.Nullable(t.String()),
  links: t.Array(t.Object({ id: Int(), code: t.String(), trackingUrl: Url(), original_url: t.String() })),
  invites: t.Array(t.Object({ id: Int(), channel_id: Int(), name: t.String(), invite_link: t.String() })),
  created_at: DateTime(),
  stats: PlacementsModel.stats,
};

export const PlacementModel = t.Object(placementFields);
/** The answer of a create: with a post, the post rewritten for the placement and the links left as they were. */
export const CreatedPlacementModel = t.Object({
  ...placementFields,
  post: t.Optional(post),
  skipped: t.Optional(t.Array(t.Object({ url: t.String(), reason: t.String() }))),
});
