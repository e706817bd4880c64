import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { getSettings, updateSettings } from "../../core/reports/settings";
import { authPlugin } from "../shared/auth";
import { SettingsModel } from "./model";

const detail = (summary: string) => ({ tags: ["settings"], summary });

/** The signed-in user's own settings: time zone and the daily or weekly report (docs/bot.md, Reports). */
export function settingsApi(deps: Deps) {
  return new Elysia({ name: "settings", prefix: "/settings" })
    .use(authPlugin(deps))
    .get("/", ({ userId }) => getSettings(deps, userId), { scope: "session", response: SettingsModel.settings, detail: detail("Your time zone and report settings") })
    .patch("/", ({ userId, body }) => updateSettings(deps, userId, body), {
      scope: "session",
      body: SettingsModel.patch,
      response: SettingsModel.settings,
      detail: detail("Change your time zone or report (a report switched on starts at its next hour)"),
    });
}
