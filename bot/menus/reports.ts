/**
 * Reports (screen `reports`, under Settings): the daily or weekly report and the user's time zone,
 * each change one tap (off / daily / weekly, the hour and the weekday stepped) or one answer (the
 * time zone: bot/conversations/settings.ts).
 */
import { getSettings, updateSettings, type SettingsInput } from "../../core/reports/settings";
import type { BotContext } from "../context";
import type { MenuRange } from "@grammyjs/menu";
import { write } from "../audited";
import { mayChange, writes } from "../workspace";
import { l, localeOf } from "../i18n";
import { zoneName } from "../../core/i18n/wall";
import { act, back, buttons, createScreen, modelOf, open, payload } from "./nav";

export const TIME_ZONE = "time-zone";

type Settings = Awaited<ReturnType<typeof getSettings>>;
const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;

function reportsText(ctx: BotContext, s: Settings): string {
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

export const reportsScreen = createScreen("reports", 0, { load: (ctx) => getSettings(ctx.deps, ctx.owner.id), body: reportsText });

/** A button that changes the settings by `change` and redraws the screen. */
function setting(range: MenuRange<BotContext>, label: string, change: (s: Settings) => SettingsInput) {
  range.text({ text: label, payload: payload(reportsScreen) }, (ctx) =>
    act(ctx, async () => {
      mayChange(ctx);
      await write(ctx, updateSettings, change(await modelOf(ctx, reportsScreen)));
      await open(ctx, reportsScreen, []);
    }),
  );
}

// the schedule and the zone are the workspace's: a viewer reads them, an editor and up changes them
buttons(reportsScreen, (ctx, range, s) => {
  const w = writes(ctx, range);
  /** One of the three ways reports come: the one in force carries the check mark, as every switch shows its state. */
  const mark = (key: string, on: boolean) => `${on ? "✅ " : ""}${ctx.t(key)}`;
  setting(w, mark("reports-set-off", s.report_every === "off"), () => ({ report_every: "off" }));
  setting(w, mark("reports-set-daily", s.report_every === "day"), () => ({ report_every: "day" }));
  setting(w, mark("reports-set-weekly", s.report_every === "week"), () => ({ report_every: "week" }));
  range.row();
  setting(w, ctx.t("reports-earlier"), (now) => ({ report_hour: (now.report_hour + 23) % 24 }));
  setting(w, ctx.t("reports-later"), (now) => ({ report_hour: (now.report_hour + 1) % 24 }));
  setting(w, ctx.t("reports-next-day"), (now) => ({ report_weekday: (now.report_weekday % 7) + 1 }));
  range.row();
  w.text({ text: ctx.t("reports-time-zone"), payload: payload(reportsScreen) }, (c) => act(c, () => c.conversation.enter(TIME_ZONE)));
  range.row();
});
back(reportsScreen, l("settings-back"), "settings");
