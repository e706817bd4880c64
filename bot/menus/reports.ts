/**
 * Reports (screen `reports`, under Settings): the daily or weekly report and the user's time zone,
 * each change one tap (off / daily / weekly, the hour and the weekday stepped) or one answer (the
 * time zone: bot/conversations/settings.ts).
 */
import { getSettings, updateSettings, type SettingsInput } from "../../core/reports/settings";
import type { BotContext } from "../context";
import { mayChange } from "../workspace";
import { l, localeOf } from "../i18n";
import { zoneName } from "../../core/i18n/wall";
import { act, back, createScreen, open, payload } from "./nav";

export const TIME_ZONE = "time-zone";

const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;

async function reportsText(ctx: BotContext): Promise<string> {
  const s = await getSettings(ctx.deps, ctx.owner.id);
  const when =
    s.report_every === "off"
      ? ctx.t("reports-off")
      : ctx.t(s.report_every === "day" ? "reports-daily" : "reports-weekly", {
          hour: hh(s.report_hour),
          weekday: ctx.t(`weekday-${s.report_weekday}`),
        });
  return [
    ctx.t("reports-title"),
    "",
    when,
    ctx.t("reports-zone", { zone: zoneName(s.time_zone, localeOf(ctx), ctx.deps.clock.now()) }),
    "",
    ctx.t("reports-about"),
  ].join("\n");
}

export const reportsScreen = createScreen("reports", 0, reportsText);

/** A button that changes the settings by `change` and redraws the screen. */
function setting(
  label: (ctx: BotContext) => string | Promise<string>,
  change: (s: Awaited<ReturnType<typeof getSettings>>) => SettingsInput,
) {
  reportsScreen.text({ text: label, payload: payload(reportsScreen) }, (ctx) =>
    act(ctx, async () => {
      mayChange(ctx);
      await updateSettings(ctx.deps, ctx.owner.id, change(await getSettings(ctx.deps, ctx.owner.id)));
      await open(ctx, reportsScreen, []);
    }),
  );
}

/** One of the three ways reports come: the one in force carries the check mark, as every switch shows its state. */
const mark = (key: string, on: (s: Awaited<ReturnType<typeof getSettings>>) => boolean) => async (ctx: BotContext) =>
  `${on(await getSettings(ctx.deps, ctx.owner.id)) ? "✅ " : ""}${ctx.t(key)}`;

setting(
  mark("reports-set-off", (s) => s.report_every === "off"),
  () => ({ report_every: "off" }),
);
setting(
  mark("reports-set-daily", (s) => s.report_every === "day"),
  () => ({ report_every: "day" }),
);
setting(
  mark("reports-set-weekly", (s) => s.report_every === "week"),
  () => ({ report_every: "week" }),
);
reportsScreen.row();
setting(l("reports-earlier"), (s) => ({ report_hour: (s.report_hour + 23) % 24 }));
setting(l("reports-later"), (s) => ({ report_hour: (s.report_hour + 1) % 24 }));
setting(l("reports-next-day"), (s) => ({ report_weekday: (s.report_weekday % 7) + 1 }));
reportsScreen.row();
reportsScreen.text({ text: l("reports-time-zone"), payload: payload(reportsScreen) }, (ctx) =>
  act(ctx, () => ctx.conversation.enter(TIME_ZONE)),
);
reportsScreen.row();
back(reportsScreen, l("settings-back"), "settings");
