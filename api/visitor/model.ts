import { t } from "elysia";

export const VisitorModel = {
  params: t.Object({ code: t.String() }),
  password: t.Object({ password: t.Optional(t.String({ maxLength: 1000 })) }),
};
