import { Elysia, t } from "elysia";
import { errors, OkModel } from "../shared/models";
import type { Deps } from "../../core/deps";
import { createTag, deleteTag, listTags } from "../../core/catalog/tags";
import { createPixel, deletePixel, listPixels } from "../../core/catalog/pixels";
import { createDomain, deleteDomain, listDomains, verifyDomain } from "../../core/catalog/domains";
import { authPlugin } from "../shared/auth";
import { CatalogModel } from "./model";

const ok = { success: true } as const;
const tags = (summary: string) => ({ tags: ["tags"], summary });
const pixels = (summary: string) => ({ tags: ["pixels"], summary });
const domains = (summary: string) => ({ tags: ["domains"], summary });

/** GET/POST/DELETE for /api/tags, /api/pixels and /api/domains (CONTRACT §4). */
export function catalogApi(deps: Deps) {
  return new Elysia({ name: "links-catalog" })
    .use(authPlugin(deps))
    .get("/tags", ({ userId }) => listTags(deps, userId), {
      scope: "read:links",
      response: t.Array(CatalogModel.tagView),
      detail: tags("Your tags by name"),
    })
    .post(
      "/tags",
      ({ userId, body, set }) => {
        set.status = 201;
        return createTag(deps, userId, body.name);
      },
      {
        scope: "write:links",
        body: CatalogModel.tag,
        response: { 201: CatalogModel.tagView, ...errors(409) },
        detail: tags("Create a tag (409 tag_exists for a name you already have)"),
      },
    )
    .delete("/tags/:id", async ({ userId, params }) => (await deleteTag(deps, userId, params.id), ok), {
      scope: "write:links",
      params: CatalogModel.idParams,
      response: OkModel,
      detail: tags("Delete a tag (links keep working, untagged)"),
    })
    .get("/pixels", ({ userId }) => listPixels(deps, userId), {
      scope: "read:pixels",
      response: t.Array(CatalogModel.pixelView),
      detail: pixels("Your pixels in the order they were added"),
    })
    .post(
      "/pixels",
      ({ userId, body, set }) => {
        set.status = 201;
        return createPixel(deps, userId, body);
      },
      {
        scope: "write:pixels",
        body: CatalogModel.pixel,
        response: { 201: CatalogModel.pixelView },
        detail: pixels("Add a retargeting pixel"),
      },
    )
    .delete("/pixels/:id", async ({ userId, params }) => (await deletePixel(deps, userId, params.id), ok), {
      scope: "write:pixels",
      params: CatalogModel.idParams,
      response: OkModel,
      detail: pixels("Delete a pixel"),
    })
    .get("/domains", ({ userId }) => listDomains(deps, userId), {
      scope: "read:links",
      response: t.Array(CatalogModel.domainView),
      detail: domains("Your custom domains"),
    })
    .post(
      "/domains",
      ({ userId, body, set }) => {
        set.status = 201;
        return createDomain(deps, userId, body.hostname);
      },
      {
        scope: "write:links",
        body: CatalogModel.domain,
        response: { 201: CatalogModel.domainView, ...errors(409) },
        detail: domains("Add a custom domain (unverified; publish the TXT record it names, then verify)"),
      },
    )
    .post("/domains/:id/verify", ({ userId, params }) => verifyDomain(deps, userId, params.id), {
      scope: "write:links",
      params: CatalogModel.idParams,
      response: { 200: CatalogModel.domainView, ...errors(409) },
      detail: { tags: ["domains"], summary: "Verify a domain by its TXT record (409 verification_failed or domain_taken)" },
    })
    .delete("/domains/:id", async ({ userId, params }) => (await deleteDomain(deps, userId, params.id), ok), {
      scope: "write:links",
      params: CatalogModel.idParams,
      response: OkModel,
      detail: domains("Delete a custom domain"),
    });
}
