import { t } from "elysia";

export const VisitorModel = {
  /** null when the path has a broken %-escape: such a code matches no link (404 page) */
  params: t.Object({ code: t.Nullable(t.String()) }),
  password: t.Object({ password: t.Optional(t.String({ maxLength: 1000 })) }),
};
