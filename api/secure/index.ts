import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { createFolder, deleteFolder, getFolder, listFolders, togglePause, updateFolder } from "../../core/secure/folders";
import { createFile, deleteFile, listFiles, ownedFile, storeUpload, toFileJson } from "../../core/secure/files";
import { createLink, deleteLink, listLinks, setRevoked, updateLink } from "../../core/secure/links";
import { sharePasswordHash } from "../../core/secure/share-password";
import type { OpenDeps } from "../../core/secure/view";
import { sweepStaleUploads } from "../../core/secure/storage";
import { createRequest, deleteRequest, listRequests, updateRequest } from "../../core/secure/requests";
import { authPlugin } from "../shared/auth";
import { SecureModel as M } from "./model";
import { securePublicApi } from "./public";
import { withUploadedFile } from "./upload";

const tags = ["secure"];
// fresh objects per route: Elysia's macro application mutates the hook object it is given
const read = () => ({ scope: "read:secure" as const, detail: { tags } });
const write = () => ({ scope: "write:secure" as const, detail: { tags } });
const ok = { success: true as const };

/**
 * Secure sharing. Owner routes (JWT, initData or API token with read:secure / write:secure) for
 * folders, files and links; the public view under /secure/view needs no auth.
 */
export function secureApi(deps: Deps, open: OpenDeps) {
  // what uploads cut off by a crash or restart left behind
  sweepStaleUploads(deps).catch((e) => deps.log.warn("could not sweep stale uploads", e));
  const owner = new Elysia({ prefix: "/secure" })
    .use(authPlugin(deps))
    // folders
    .get("/folders", ({ userId }) => listFolders(deps, userId), read())
    .get("/folders/:id", ({ userId, params }) => getFolder(deps, userId, params.id), { ...read(), params: M.idParams })
    .post("/folders", ({ userId, body, set }) => {
      set.status = 201;
      return createFolder(deps, userId, body);
    }, { ...write(), body: M.folderCreate })
    .patch("/folders/:id", ({ userId, params, body }) => updateFolder(deps, userId, params.id, body), { ...write(), params: M.idParams, body: M.folderUpdate })
    .patch("/folders/:id/pause", ({ userId, params }) => togglePause(deps, userId, params.id), { ...write(), params: M.idParams })
    .delete("/folders/:id", async ({ userId, params }) => (await deleteFolder(deps, userId, params.id), ok), { ...write(), params: M.idParams })
    // files
    .get("/files", ({ userId, query }) => listFiles(deps, userId, query.folderId), { ...read(), query: M.filesQuery })
    .get("/files/:id", async ({ userId, params }) => toFileJson(await ownedFile(deps, userId, params.id)), { ...read(), params: M.idParams })
    .post("/files", ({ userId, body, set }) => {
      set.status = 201;
      return createFile(deps, userId, body);
    }, { ...write(), body: M.fileCreate })
    .post("/files/:id/upload", async ({ userId, params, request }) => {
      await ownedFile(deps, userId, params.id); // 404 before reading the body
      return withUploadedFile(request, (stream, info) => storeUpload(deps, userId, params.id, stream, info.filename));
    }, { ...write(), params: M.idParams, parse: "none", detail: { tags, summary: "Upload the bytes (multipart field `file`, at most 10 MB)" } })
    .delete("/files/:id", async ({ userId, params }) => (await deleteFile(deps, userId, params.id), ok), { ...write(), params: M.idParams })
    // links
    .get("/links", ({ userId, query }) => listLinks(deps, userId, query.fileId), { ...read(), query: M.linksQuery, response: t.Array(M.link) })
    .post("/links", async ({ userId, body, set }) => {
      const { password, ...rest } = body;
      const link = await createLink(deps, userId, { ...rest, passwordHash: await sharePasswordHash(password ?? null) });
      set.status = 201;
      return link;
    }, { ...write(), body: M.linkCreate, response: { 201: M.link } })
    .patch("/links/:id", async ({ userId, params, body }) => {
      const { password, ...rest } = body;
      const passwordHash = password === undefined ? undefined : await sharePasswordHash(password);
      return updateLink(deps, userId, params.id, { ...rest, passwordHash });
    }, { ...write(), params: M.idParams, body: M.linkUpdate, response: M.link, detail: { tags, summary: "Set or remove the share password, turn view notifications on or off" } })
    .patch("/links/:id/revoke", ({ userId, params }) => setRevoked(deps, userId, params.id, true), { ...write(), params: M.idParams, response: M.link })
    .patch("/links/:id/restore", ({ userId, params }) => setRevoked(deps, userId, params.id, false), { ...write(), params: M.idParams, response: M.link })
    .delete("/links/:id", async ({ userId, params }) => (await deleteLink(deps, userId, params.id), ok), { ...write(), params: M.idParams })
    // request links: files and texts sent to the owner by anyone with the link
    .get("/requests", ({ userId }) => listRequests(deps, userId), { ...read(), response: t.Array(M.request) })
    .post("/requests", ({ userId, body, set }) => {
      set.status = 201;
      return createRequest(deps, userId, body);
    }, { ...write(), body: M.requestCreate, response: { 201: M.request } })
    .patch("/requests/:id", ({ userId, params, body }) => updateRequest(deps, userId, params.id, body), { ...write(), params: M.idParams, body: M.requestUpdate, response: M.request })
    .delete("/requests/:id", async ({ userId, params }) => (await deleteRequest(deps, userId, params.id), ok), { ...write(), params: M.idParams, response: M.ok });

  return new Elysia({ name: "secure" }).use(securePublicApi(deps, open)).use(owner);
}
