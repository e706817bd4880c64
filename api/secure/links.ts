import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { createShareLink, deleteShareLink, listFileShareLinks, setShareLinkRevoked, updateShareLink } from "../../core/secure/share-links";
import { sharePasswordHash } from "../../core/secure/share-password";
import { createRequest, deleteRequest, listRequests, updateRequest } from "../../core/secure/requests";
import { authPlugin } from "../shared/auth";
import { errors } from "../shared/models";
import { SecureModel as M } from "./model";
import { ok, read, write } from "./hooks";

/** The owner's share links (to a file) and request links (into a folder), under /secure: secureApi takes them in. */
export function secureLinksApi(deps: Deps) {
  return (
    new Elysia({ name: "secure-links", prefix: "/secure" })
      .use(authPlugin(deps))
      // links
      .get("/links", ({ userId, query }) => listFileShareLinks(deps, userId, query.fileId), {
        ...read("The share links of a file"),
        query: M.linksQuery,
        response: { 200: t.Array(M.link), ...errors(404) },
      })
      .post(
        "/links",
        async ({ userId, body, set }) => {
          const { password, ...rest } = body;
          const link = await createShareLink(deps, userId, { ...rest, passwordHash: await sharePasswordHash(password ?? null) });
          set.status = 201;
          return link;
        },
        { ...write("Make a share link to a file"), body: M.linkCreate, response: { 201: M.link, ...errors(404) } },
      )
      .patch(
        "/links/:id",
        async ({ userId, params, body }) => {
          const { password, ...rest } = body;
          const passwordHash = password === undefined ? undefined : await sharePasswordHash(password);
          return updateShareLink(deps, userId, params.id, { ...rest, passwordHash });
        },
        {
          ...write("Set or remove the share password, turn view notifications on or off"),
          params: M.idParams,
          body: M.linkUpdate,
          response: M.link,
        },
      )
      .patch("/links/:id/revoke", ({ userId, params }) => setShareLinkRevoked(deps, userId, params.id, true), {
        ...write("Revoke a share link"),
        params: M.idParams,
        response: M.link,
      })
      .patch("/links/:id/restore", ({ userId, params }) => setShareLinkRevoked(deps, userId, params.id, false), {
        ...write("Restore a revoked share link"),
        params: M.idParams,
        response: M.link,
      })
      .delete("/links/:id", async ({ userId, params }) => (await deleteShareLink(deps, userId, params.id), ok), {
        ...write("Delete a share link"),
        params: M.idParams,
        response: M.ok,
      })
      // request links: files and texts sent to the owner by anyone with the link
      .get("/requests", ({ userId }) => listRequests(deps, userId), { ...read("Your request links"), response: t.Array(M.request) })
      .post(
        "/requests",
        ({ userId, body, set }) => {
          set.status = 201;
          return createRequest(deps, userId, body);
        },
        {
          ...write("Make a request link: anyone with it can send files and texts into a folder"),
          body: M.requestCreate,
          response: { 201: M.request, ...errors(404) },
        },
      )
      .patch("/requests/:id", ({ userId, params, body }) => updateRequest(deps, userId, params.id, body), {
        ...write("Turn a request link on or off, or retitle it"),
        params: M.idParams,
        body: M.requestUpdate,
        response: M.request,
      })
      .delete("/requests/:id", async ({ userId, params }) => (await deleteRequest(deps, userId, params.id), ok), {
        ...write("Delete a request link"),
        params: M.idParams,
        response: M.ok,
      })
  );
}
