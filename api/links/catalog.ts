import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { createTag, deleteTag, listTags } from "../../core/catalog/tags";
import { createPixel, deletePixel, listPixels } from "../../core/catalog/pixels";
import { createDomain, deleteDomain, listDomains, verifyDomain } from "../../core/catalog/domains";
import { authPlugin } from "../shared/auth";
import { CatalogModel } from "./model";

const ok = { success: true } as const;

/** GET/POST/DELETE for /api/tags, /api/pixels and /api/domains (CONTRACT §4). */
export function catalogApi(deps: Deps) {
  return new Elysia({ name: "links-catalog" })
    .use(authPlugin(deps))
    .get("/tags", ({ userId }) => listTags(deps, userId), { scope: "read:links", detail: { tags: ["tags"] } })
    .post("/tags", ({ userId, body, set }) => {
      set.status = 201;
      return createTag(deps, userId, body.name);
    }, { scope: "write:links", body: CatalogModel.tag, detail: { tags: ["tags"] } })
    .delete("/tags/:id", async ({ userId, params }) => (await deleteTag(deps, userId, params.id), ok), {
      scope: "write:links", params: CatalogModel.idParams, detail: { tags: ["tags"] },
    })
    .get("/pixels", ({ userId }) => listPixels(deps, userId), { scope: "read:pixels", detail: { tags: ["pixels"] } })
    .post("/pixels", ({ userId, body, set }) => {
      set.status = 201;
      return createPixel(deps, userId, body);
    }, { scope: "write:pixels", body: CatalogModel.pixel, detail: { tags: ["pixels"] } })
    .delete("/pixels/:id", async ({ userId, params }) => (await deletePixel(deps, userId, params.id), ok), {
      scope: "write:pixels", params: CatalogModel.idParams, detail: { tags: ["pixels"] },
    })
    .get("/domains", ({ userId }) => listDomains(deps, userId), { scope: "read:links", response: t.Array(CatalogModel.domainView), detail: { tags: ["domains"] } })
    .post("/domains", ({ userId, body, set }) => {
      set.status = 201;
      return createDomain(deps, userId, body.hostname);
    }, { scope: "write:links", body: CatalogModel.domain, response: { 201: CatalogModel.domainView }, detail: { tags: ["domains"], summary: "Add a custom domain (unverified; publish the TXT record it names, then verify)" } })
    .post("/domains/:id/verify", ({ userId, params }) => verifyDomain(deps, userId, params.id), {
      scope: "write:links", params: CatalogModel.idParams, response: CatalogModel.domainView,
      detail: { tags: ["domains"], summary: "Verify a domain by its TXT record (409 verification_failed or domain_taken)" },
    })
    .delete("/domains/:id", async ({ userId, params }) => (await deleteDomain(deps, userId, params.id), ok), {
      scope: "write:links", params: CatalogModel.idParams, detail: { tags: ["domains"] },
    });
}
