import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { createFolder, deleteFolder, getFolder, listFolders, togglePause, updateFolder } from "../../core/secure/folders";
import { createFile, deleteFile, listFiles, ownedFile, storeUpload, toFileJson } from "../../core/secure/files";
import { createShareLink, deleteShareLink, listFileShareLinks, setShareLinkRevoked, updateShareLink } from "../../core/secure/share-links";
import { sharePasswordHash } from "../../core/secure/share-password";
import type { OpenDeps } from "../../core/secure/view";
import { sweepStaleUploads } from "../../core/secure/storage";
import { createRequest, deleteRequest, listRequests, updateRequest } from "../../core/secure/requests";
import { authPlugin } from "../shared/auth";
import { errors } from "../shared/models";
import { SecureModel as M, SecureViews as V } from "./model";
import { securePublicApi } from "./public";
import { withUploadedFile } from "./upload";

const tags = ["secure"];
// fresh objects per route: Elysia's macro application mutates the hook object it is given
const read = (summary: string) => ({ scope: "read:secure" as const, detail: { tags, summary } });
const write = (summary: string) => ({ scope: "write:secure" as const, detail: { tags, summary } });
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
    .get("/folders", ({ userId }) => listFolders(deps, userId), {
      ...read("Your folders with their file counts"),
      response: t.Array(V.folder),
    })
    .get("/folders/:id", ({ userId, params }) => getFolder(deps, userId, params.id), {
      ...read("One folder"),
      params: M.idParams,
      response: V.folder,
    })
    .post(
      "/folders",
      ({ userId, body, set }) => {
        set.status = 201;
        return createFolder(deps, userId, body);
      },
      { ...write("Create a folder"), body: M.folderCreate, response: { 201: V.folder } },
    )
    .patch("/folders/:id", ({ userId, params, body }) => updateFolder(deps, userId, params.id, body), {
      ...write("Rename or describe a folder"),
      params: M.idParams,
      body: M.folderUpdate,
      response: V.folder,
    })
    .patch("/folders/:id/pause", ({ userId, params }) => togglePause(deps, userId, params.id), {
      ...write("Pause or resume every share link of a folder"),
      params: M.idParams,
      response: V.folder,
    })
    .delete("/folders/:id", async ({ userId, params }) => (await deleteFolder(deps, userId, params.id), ok), {
      ...write("Delete a folder with its files and links"),
      params: M.idParams,
      response: M.ok,
    })
    // files
    .get("/files", ({ userId, query }) => listFiles(deps, userId, query.folderId), {
      ...read("The files of a folder"),
      query: M.filesQuery,
      response: { 200: t.Array(V.file), ...errors(404) },
    })
    .get("/files/:id", async ({ userId, params }) => toFileJson(await ownedFile(deps, userId, params.id)), {
      ...read("One file (its description, not its bytes)"),
      params: M.idParams,
      response: V.file,
    })
    .post(
      "/files",
      ({ userId, body, set }) => {
        set.status = 201;
        return createFile(deps, userId, body);
      },
      {
        ...write("Describe a file (then upload its bytes) or store a text note"),
        body: M.fileCreate,
        response: { 201: V.file, ...errors(404) },
      },
    )
    .post(
      "/files/:id/upload",
      async ({ userId, params, request }) => {
        await ownedFile(deps, userId, params.id); // 404 before reading the body
        return withUploadedFile(request, (stream, info) => storeUpload(deps, userId, params.id, stream, info.filename));
      },
      {
        ...write("Upload the bytes (multipart field `file`, at most 10 MB)"),
        params: M.idParams,
        parse: "none",
        response: { 200: V.file, ...errors(409, 413, 415) },
      },
    )
    .delete("/files/:id", async ({ userId, params }) => (await deleteFile(deps, userId, params.id), ok), {
      ...write("Delete a file and its links"),
      params: M.idParams,
      response: M.ok,
    })
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
    });

  return new Elysia({ name: "secure" }).use(securePublicApi(deps, open)).use(owner);
}
