import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { recordConversion } from "../../core/conversions/conversions";
import { ownerOfPostbackKey } from "../../core/conversions/keys";
import { NotFound } from "../../core/errors";
import { ConversionsModel as C } from "../conversions/model";
import { conversionInputOf } from "../conversions";
import { errors } from "../shared/models";

/**
 * The GET postback URL, for servers that can only call a URL: `GET /c/<key>?event=&click_id=&value=
 * &currency=&external_id=` records a conversion of the key's account and answers 204 (404 for an
 * unknown or revoked key). A repeat of the same external_id is one conversion.
 */
export function postbackUrlApi(deps: Deps) {
  return new Elysia({ name: "postback-url" }).get(
    "/c/:key",
    async ({ params, query, set }) => {
      const ownerId = await ownerOfPostbackKey(deps, params.key);
      if (ownerId === null) throw new NotFound("Postback key");
      await recordConversion(deps, ownerId, conversionInputOf(query));
      set.status = 204;
      return undefined;
    },
    {
      params: C.keyParams,
      query: C.getQuery,
      response: { 204: t.Void(), ...errors(400, 404) },
      detail: { tags: ["conversions"], summary: "Report a conversion by URL with a postback key (public: the key is the credential)" },
    },
  );
}
