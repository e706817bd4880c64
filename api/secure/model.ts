import { t } from "elysia";

const contentType = t.Union([t.Literal("text"), t.Literal("image"), t.Literal("video"), t.Literal("audio"), t.Literal("file")]);

export const SecureModel = {
  idParams: t.Object({ id: t.Numeric({ minimum: 1 }) }),
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
  filesQuery: t.Object({ folderId: t.Numeric({ minimum: 1 }) }),
  fileCreate: t.Object({
    folderId: t.Integer({ minimum: 1 }),
    name: t.String({ minLength: 1, maxLength: 200 }),
    description: t.Optional(t.String({ maxLength: 1000 })),
    contentType,
    textContent: t.Optional(t.String({ maxLength: 512 * 1024 })),
  }),
  linksQuery: t.Object({ fileId: t.Numeric({ minimum: 1 }) }),
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
  passwordHeaders: t.Object({ "x-share-password": t.Optional(t.String({ maxLength: 1024 })) }),
};
