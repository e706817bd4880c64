import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { getUserSettings, updateUserSettings } from "../../core/reports/settings";
import { authPlugin } from "../shared/auth";
import { SettingsModel } from "./model";

const detail = (summary: string) => ({ tags: ["settings"], summary });

/**
 * The signed-in person's own settings: language, time zone and the daily or weekly report (docs/bot.md,
 * Reports and Languages). They are the person's whichever workspace the request acts in.
 */
export function settingsApi(deps: Deps) {
  return new Elysia({ name: "settings", prefix: "/settings" })
    .use(authPlugin(deps))
    .get("/", ({ actorId }) => getUserSettings(deps, actorId), {
      scope: "session",
      response: SettingsModel.settings,
      detail: detail("Your language, time zone and report settings"),
    })
    .patch("/", ({ actorId, body }) => updateUserSettings(deps, actorId, body), {
      scope: "session",
      body: SettingsModel.patch,
      response: SettingsModel.settings,
      detail: detail("Change your language, time zone or report (a report switched on starts at its next hour)"),
    });
}
