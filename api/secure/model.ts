import { t, type Static } from "elysia";
import { DateTime, IdParams, OkModel, Url } from "../shared/models";

const contentType = t.Union([t.Literal("text"), t.Literal("image"), t.Literal("video"), t.Literal("audio"), t.Literal("file")]);

export const SecureModel = {
  ok: OkModel,
  idParams: IdParams,
  // public routes: no length limits here, an over-long code is an unknown link (404) and an
  // over-long grant an invalid one (counts a view), as the spec's table and the docs say
  codeParams: t.Object({ code: t.String({ minLength: 1 }) }),
  grantQuery: t.Object({ grant: t.Optional(t.String()) }),
  folderCreate: t.Object({
    name: t.String({ minLength: 1, maxLength: 100 }),
    description: t.Optional(t.String({ maxLength: 1000 })),
  }),
  folderUpdate: t.Object({
    name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    description: t.Optional(t.String({ maxLength: 1000 })),
  }),
  filesQuery: t.Object({ folderId: IdParams.properties.id }),
  fileCreate: t.Object({
    folderId: t.Integer({ minimum: 1 }),
    name: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        description: 'required for files; a text note without one is named "Note N, 25 Nov", never after its text',
      }),
    ),
    description: t.Optional(t.String({ maxLength: 1000 })),
    contentType,
    textContent: t.Optional(t.String({ maxLength: 512 * 1024 })),
  }),
  linksQuery: t.Object({ fileId: IdParams.properties.id }),
  linkCreate: t.Object({
    fileId: t.Integer({ minimum: 1 }),
    expiresInHours: t.Number({ exclusiveMinimum: 0, maximum: 8784 }),
    maxViews: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 1_000_000 }))),
    password: t.Optional(t.String({ minLength: 4, maxLength: 128, description: "share password, stored hashed" })),
    notifyOnView: t.Optional(t.Boolean()),
  }),
  linkUpdate: t.Object({
    password: t.Optional(t.Nullable(t.String({ minLength: 4, maxLength: 128, description: "a new share password; null removes it" }))),
    notifyOnView: t.Optional(t.Boolean()),
  }),
  link: t.Object({
    id: t.Integer(),
    fileId: t.Integer(),
    code: t.String(),
    url: Url({ description: "SHORT_URL/s/<code>" }),
    expiresAt: DateTime(),
    maxViews: t.Nullable(t.Integer({ description: "null: unlimited" })),
    viewCount: t.Integer(),
    isRevoked: t.Boolean(),
    state: t.Union([t.Literal("active"), t.Literal("revoked"), t.Literal("paused"), t.Literal("expired"), t.Literal("exhausted")]),
    hasPassword: t.Boolean(),
    notifyOnView: t.Boolean(),
    createdAt: DateTime(),
  }),
  requestCreate: t.Object({
    folderId: t.Integer({ minimum: 1 }),
    title: t.Optional(t.String({ maxLength: 200 })),
    expiresInHours: t.Optional(t.Number({ exclusiveMinimum: 0, maximum: 8784 })),
    maxFiles: t.Optional(t.Integer({ minimum: 1, maximum: 10_000 })),
  }),
  requestUpdate: t.Object({ isActive: t.Optional(t.Boolean()), title: t.Optional(t.String({ maxLength: 200 })) }),
  request: t.Object({
    id: t.Integer(),
    code: t.String(),
    url: Url({ description: "SHORT_URL/r/<code>" }),
    folderId: t.Integer(),
    title: t.String(),
    expiresAt: t.Nullable(DateTime("null: never expires")),
    maxFiles: t.Nullable(t.Integer({ description: "null: no maximum" })),
    filesReceived: t.Integer(),
    isActive: t.Boolean(),
    state: t.Union([t.Literal("active"), t.Literal("inactive"), t.Literal("expired"), t.Literal("full")]),
    createdAt: DateTime(),
  }),
  received: t.Object({
    received: t.Literal(true),
    kind: t.Union([t.Literal("file"), t.Literal("text")]),
    name: t.String(),
    size: t.Integer(),
    /** null: the request takes any number */
    itemsLeft: t.Nullable(t.Integer()),
  }),
  requestText: t.Object({ text: t.String({ minLength: 1, maxLength: 512 * 1024 }) }),
  passwordHeaders: t.Object({ "x-share-password": t.Optional(t.String({ maxLength: 1024 })) }),
};

/** What the owner routes and the public view answer. */
export const SecureViews = {
  folder: t.Object({
    id: t.Integer(),
    name: t.String(),
    description: t.String(),
    isPaused: t.Boolean(),
    fileCount: t.Integer(),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
  file: t.Object({
    id: t.Integer(),
    folderId: t.Integer(),
    name: t.String(),
    description: t.String(),
    contentType,
    mimeType: t.Nullable(t.String()),
    fileName: t.Nullable(t.String()),
    fileSize: t.Nullable(t.Integer()),
    textContent: t.Optional(t.String({ description: "text files only" })),
    hasContent: t.Boolean({ description: "false until the bytes of a non-text file are uploaded" }),
    createdAt: DateTime(),
  }),
  /** GET /api/secure/view/:code; a link-preview bot gets only code, contentType, expiresAt and message */
  view: t.Object({
    code: t.String(),
    name: t.Optional(t.String()),
    description: t.Optional(t.String()),
    contentType,
    expiresAt: DateTime(),
    viewsLeft: t.Optional(t.Nullable(t.Integer({ description: "views left after this one; null: unlimited" }))),
    lines: t.Optional(t.Array(t.String(), { description: "text content split into lines (contentType text)" })),
    mimeType: t.Optional(t.String()),
    fileName: t.Optional(t.String()),
    fileSize: t.Optional(t.Integer()),
    streamUrl: t.Optional(Url()),
    downloadUrl: t.Optional(Url()),
    preview: t.Optional(t.Boolean({ description: "the owner previewed: nothing counted" })),
    message: t.Optional(t.String()),
  }),
  /** the bytes of the shared file (Range requests answer 206) */
  bytes: t.String({ format: "binary" }),
};

export type SecureFolder = Static<typeof SecureViews.folder>;
export type SecureLink = Static<typeof SecureModel.link>;
export type SecureRequest = Static<typeof SecureModel.request>;
