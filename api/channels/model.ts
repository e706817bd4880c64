import { t } from "elysia";
import { IdParams, OkModel, Url } from "../shared/models";

const date = t.String({ format: "date-time" });
const nullableDate = t.Nullable(date);
const cost = t.Object(
  { amount: t.Number(), currency: t.String() },
  { description: "the price of the ad: amount ≥ 0 in an ISO 4217 currency" },
);
const count = t.Integer({ minimum: 0 });
const retention = t.Object({ eligible: count, stayed: count, rate: t.Nullable(t.Number()) });

/** Types only: lengths, limits, currencies and cross-field rules are checked by core (shared with the bot). */
export const ChannelsModel = {
  idParams: IdParams,
  add: t.Object({ chat: t.Union([t.String(), t.Integer()], { description: "@username or the numeric chat id" }) }),
  channel: t.Object({
    id: t.Integer(),
    chat_id: t.String(),
    type: t.String(),
    title: t.Nullable(t.String()),
    username: t.Nullable(t.String()),
    members: t.Nullable(t.Number()),
    can_invite: t.Boolean(),
    bot_is_admin: t.Boolean(),
    created_at: date,
  }),
  createInvite: t.Object({
    name: t.String(),
    join_request: t.Optional(t.Boolean()),
    approve: t.Optional(t.Union([t.Literal("auto"), t.Literal("manual")])),
    welcome: t.Optional(t.Nullable(t.String())),
    expires_at: t.Optional(t.Nullable(t.String())),
    member_limit: t.Optional(t.Nullable(t.Integer())),
    cost: t.Optional(t.Nullable(cost)),
    link: t.Optional(t.Boolean({ description: "also make a tracking link to the invite link" })),
  }),
  patchInvite: t.Object({
    name: t.Optional(t.String()),
    approve: t.Optional(t.Union([t.Literal("auto"), t.Literal("manual")])),
    welcome: t.Optional(t.Nullable(t.String())),
    expires_at: t.Optional(t.Nullable(t.String())),
    member_limit: t.Optional(t.Nullable(t.Integer())),
    cost: t.Optional(t.Nullable(cost)),
  }),
  invite: t.Object({
    id: t.Integer(),
    channel_id: t.Integer(),
    name: t.String(),
    invite_link: Url(),
    join_request: t.Boolean(),
    approve: t.Union([t.Literal("auto"), t.Literal("manual")]),
    welcome: t.Nullable(t.String()),
    expires_at: nullableDate,
    member_limit: t.Nullable(t.Number()),
    cost: t.Nullable(cost),
    link_id: t.Nullable(t.Number()),
    trackingUrl: t.Nullable(Url()),
    is_revoked: t.Boolean(),
    created_at: date,
    stats: t.Object({ joins: count, leaves: count, net: t.Integer(), pending: count }),
  }),
  inviteStats: t.Object({
    clicks: count,
    unique_clicks: count,
    joins: count,
    leaves: count,
    net: t.Integer(),
    conversion: t.Nullable(t.Number()),
    retention: t.Object({ h24: retention, d7: retention, d30: retention }),
    cost_per_join: t.Nullable(t.Number()),
    cost_per_retained: t.Nullable(t.Number()),
    conversions: t.Object(
      {
        count,
        value: t.Record(t.String(), t.Number(), { description: "the sum of values by currency" }),
        by_event: t.Record(t.String(), count, { description: "how many of each event (join: the invite's joins)" }),
      },
      { description: "conversions attributed to the invite" },
    ),
  }),
  channelStats: t.Object({
    joins: count,
    leaves: count,
    net: t.Integer(),
    members: t.Nullable(t.Number()),
    by_invite: t.Array(t.Object({ invite_id: t.Number(), name: t.String(), joins: count, leaves: count, net: t.Integer() })),
    unattributed: t.Object({ joins: count, leaves: count }),
  }),
  membersQuery: t.Object({
    page: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000, multipleOf: 1, default: 1 })),
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: 100, multipleOf: 1, default: 50 })),
    invite_id: t.Optional(t.Numeric({ minimum: 1, multipleOf: 1, maximum: Number.MAX_SAFE_INTEGER })),
  }),
  members: t.Object({
    data: t.Array(
      t.Object({
        user_id: t.Number(),
        username: t.Nullable(t.String()),
        first_name: t.Nullable(t.String()),
        invite_id: t.Nullable(t.Number()),
        via: t.String({ description: "invite, other_link, folder, request or none" }),
        via_join_request: t.Boolean(),
        joined_at: nullableDate,
        left_at: nullableDate,
      }),
    ),
    total: count,
    page: t.Integer(),
    limit: t.Integer(),
  }),
  request: t.Object({
    id: t.Integer(),
    user_id: t.Integer(),
    username: t.Nullable(t.String()),
    first_name: t.Nullable(t.String()),
    invite_id: t.Number(),
    requested_at: date,
    status: t.Union([t.Literal("pending"), t.Literal("approved"), t.Literal("declined")]),
  }),
  ok: OkModel,
  export: t.Object({ format: t.Union([t.Literal("csv"), t.Literal("xlsx")]), invite_id: t.Optional(t.Integer({ minimum: 1 })) }),
  chart: t.Object({ days: t.Optional(t.Integer({ minimum: 1, maximum: 365 })), invite_id: t.Optional(t.Integer({ minimum: 1 })) }),
  seriesQuery: t.Object({
    days: t.Optional(t.Numeric({ minimum: 1, maximum: 365, multipleOf: 1, default: 30 })),
    invite_id: t.Optional(t.Numeric({ minimum: 1, multipleOf: 1, maximum: Number.MAX_SAFE_INTEGER })),
  }),
  series: t.Object({
    title: t.String(),
    labels: t.Array(t.String()),
    joins: t.Array(t.Object({ name: t.String(), data: t.Array(t.Integer()) })),
    leaves: t.Array(t.Integer()),
  }),
  sent: t.Object({ ok: t.Boolean(), message: t.String(), rows: t.Optional(t.Integer()) }),
};
