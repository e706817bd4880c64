import { t } from "elysia";

export const MiniappModel = {
  assetParams: t.Object({ name: t.String({ pattern: "^[A-Za-z0-9_.-]+$" }) }),
};
