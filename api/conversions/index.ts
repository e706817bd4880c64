import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { listConversions, recordConversion, type ConversionInput } from "../../core/conversions/conversions";
import { conversionStats } from "../../core/conversions/stats";
import { createPostbackKey, listPostbackKeys, revokePostbackKey } from "../../core/conversions/keys";
import {
  createPostback,
  deletePostback,
  getPostback,
  listPostbacks,
  postbackDeliveries,
  testPostback,
  type PostbackInput,
} from "../../core/conversions/postbacks";
import { FieldError } from "../../core/errors";
import { authPlugin } from "../shared/auth";
import { IdParams, OkModel, errors } from "../shared/models";
import { ConversionStatsModel, ConversionsModel as C, PostbackKeysModel as K, PostbacksModel as P } from "./model";

const conversions = { tags: ["conversions"] };
const postbacks = { tags: ["postbacks"] };
const ok = { success: true } as const;

/** The API's snake_case conversion as core's input. */
export function conversionInputOf(b: {
  event: string;
  click_id?: string | null;
  tg_user_id?: number | null;
  value?: number | null;
  currency?: string | null;
  external_id?: string | null;
  occurred_at?: string | null;
}): ConversionInput {
  return {
    event: b.event,
    clickId: b.click_id ?? null,
    tgUserId: b.tg_user_id ?? null,
    value: b.value ?? null,
    currency: b.currency ?? null,
    externalId: b.external_id ?? null,
    occurredAt: b.occurred_at ? new Date(b.occurred_at) : null,
  };
}

/** Which one thing figures are asked of: exactly one of link_id, invite_id, placement_id. */
function scopeOf(q: { link_id?: number; invite_id?: number; placement_id?: number }) {
  const given = [q.link_id, q.invite_id, q.placement_id].filter((v) => v !== undefined).length;
  if (given !== 1) throw new FieldError("link_id", "give exactly one of link_id, invite_id, placement_id");
  if (q.link_id !== undefined) return { linkId: q.link_id };
  if (q.invite_id !== undefined) return { inviteId: q.invite_id };
  return { placementId: q.placement_id! };
}

/**
 * Conversions in (reported by the advertiser's server: `write:conversions`; read back:
 * `read:conversions`), the keys of the GET postback URL, and postbacks out (`write:webhooks` to set
 * up and test, `read:webhooks` to read). See docs/conversions.md.
 */
export function conversionsApi(deps: Deps) {
  return new Elysia({ name: "conversions" }).use(conversionsInApi(deps)).use(postbackKeysApi(deps)).use(postbacksApi(deps));
}

/** Conversions reported, listed and counted. */
function conversionsInApi(deps: Deps) {
  return new Elysia({ name: "conversions-in" })
    .use(authPlugin(deps))
    .post(
      "/conversions",
      async ({ userId, body, set }) => {
        const { created, ...answer } = await recordConversion(deps, userId, conversionInputOf(body));
        set.status = created ? 201 : 200;
        return answer;
      },
      {
        scope: "write:conversions",
        body: C.create,
        response: { 200: C.created, 201: C.created, ...errors(400) },
        detail: {
          ...conversions,
          summary: "Report a conversion: attributed by click_id, else by tg_user_id to their latest join (30 days)",
          description: "The same external_id twice is one conversion: the second call answers 200 with the first.",
        },
      },
    )
    .get(
      "/conversions",
      ({ userId, query }) =>
        listConversions(deps, userId, { ...query, linkId: query.link_id, inviteId: query.invite_id, placementId: query.placement_id }),
      {
        scope: "read:conversions",
        query: C.listQuery,
        response: t.Array(C.conversion),
        detail: { ...conversions, summary: "Your conversions, newest first" },
      },
    )
    .get(
      "/conversions/stats",
      ({ userId, query }) =>
        conversionStats(deps, userId, scopeOf(query), {
          from: query.from ? new Date(query.from) : undefined,
          to: query.to ? new Date(query.to) : undefined,
        }),
      {
        scope: "read:conversions",
        query: C.statsQuery,
        response: { 200: ConversionStatsModel, ...errors(400) },
        detail: { ...conversions, summary: "Conversion figures of one link, invite or placement" },
      },
    );
}

/** The keys of the GET postback URL: made (shown once), listed, revoked. */
function postbackKeysApi(deps: Deps) {
  return new Elysia({ name: "postback-keys" })
    .use(authPlugin(deps))
    .post(
      "/postback-keys",
      async ({ userId, body, set }) => {
        set.status = 201;
        return createPostbackKey(deps, userId, body.name);
      },
      {
        scope: "write:conversions",
        body: K.create,
        response: { 201: K.created, ...errors(400) },
        detail: { ...conversions, summary: "Make a key for the GET postback URL (the key is shown once)" },
      },
    )
    .get("/postback-keys", ({ userId }) => listPostbackKeys(deps, userId), {
      scope: "read:conversions",
      response: t.Array(K.key),
      detail: { ...conversions, summary: "Your postback keys, revoked ones too" },
    })
    .delete(
      "/postback-keys/:id",
      async ({ userId, params }) => {
        await revokePostbackKey(deps, userId, params.id);
        return ok;
      },
      {
        scope: "write:conversions",
        params: IdParams,
        response: { 200: OkModel, ...errors(404) },
        detail: { ...conversions, summary: "Revoke a postback key: its URL is refused from now on (the key stays listed, revoked)" },
      },
    );
}

/** Postbacks out: set up, listed, deleted, tested, and their deliveries. */
function postbacksApi(deps: Deps) {
  return new Elysia({ name: "postbacks" })
    .use(authPlugin(deps))
    .post(
      "/postbacks",
      async ({ userId, body, set }) => {
        set.status = 201;
        return createPostback(deps, userId, body as PostbackInput);
      },
      {
        scope: "write:webhooks",
        body: P.create,
        response: { 201: P.postback, ...errors(400, 404) },
        detail: { ...postbacks, summary: "Set up a postback: a URL template with macros, or the Meta Conversions API" },
      },
    )
    .get("/postbacks", ({ userId }) => listPostbacks(deps, userId), {
      scope: "read:webhooks",
      response: t.Array(P.postback),
      detail: { ...postbacks, summary: "Your postbacks, newest first" },
    })
    .get("/postbacks/:id", ({ userId, params }) => getPostback(deps, userId, params.id), {
      scope: "read:webhooks",
      params: IdParams,
      response: { 200: P.postback, ...errors(404) },
      detail: { ...postbacks, summary: "One postback" },
    })
    .delete(
      "/postbacks/:id",
      async ({ userId, params }) => {
        await deletePostback(deps, userId, params.id);
        return ok;
      },
      {
        scope: "write:webhooks",
        params: IdParams,
        response: { 200: OkModel, ...errors(404) },
        detail: { ...postbacks, summary: "Delete a postback (its queued deliveries are cancelled)" },
      },
    )
    .post("/postbacks/:id/test", ({ userId, params }) => testPostback(deps, userId, params.id), {
      scope: "write:webhooks",
      params: IdParams,
      response: { 200: P.testResult, ...errors(404) },
      detail: { ...postbacks, summary: "Send a sample event to the postback now and report the answer" },
    })
    .get("/postbacks/:id/deliveries", ({ userId, params, query }) => postbackDeliveries(deps, userId, params.id, query), {
      scope: "read:webhooks",
      params: IdParams,
      query: P.deliveriesQuery,
      response: { 200: t.Array(P.delivery), ...errors(404) },
      detail: { ...postbacks, summary: "The postback's recent deliveries, newest first" },
    });
}
