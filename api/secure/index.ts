import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { createFolder, deleteFolder, getFolder, listFolders, togglePause, updateFolder } from "../../core/secure/folders";
import { createFile, deleteFile, listFiles, ownedFile, storeUpload, toFileJson } from "../../core/secure/files";
import type { OpenDeps } from "../../core/secure/view";
import { sweepStaleUploads } from "../../core/secure/storage";
import { authPlugin } from "../shared/auth";
import { errors } from "../shared/models";
import { SecureModel as M, SecureViews as V } from "./model";
import { securePublicApi } from "./public";
import { withUploadedFile } from "./upload";
import { ok, read, write } from "./hooks";
import { secureLinksApi } from "./links";

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
    });

  return new Elysia({ name: "secure" }).use(securePublicApi(deps, open)).use(owner).use(secureLinksApi(deps));
}
