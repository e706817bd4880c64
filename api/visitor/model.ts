import { t } from "elysia";

export const VisitorModel = {
  params: t.Object({ code: t.String({ maxLength: 200 }) }),
  password: t.Object({ password: t.Optional(t.String({ maxLength: 1000 })) }),
};
