/**
 * Visits to dead codes (screen `orphans`, under the link list): requests for codes of the user's
 * disabled or deleted links and unknown codes on the user's verified domains, over the last 30 days.
 */
import { orphanVisitsOf } from "../../core/analytics/orphans";
import type { BotContext } from "../context";
import { back, createScreen } from "./nav";

const SHOWN = 15;

export const orphansScreen = createScreen("orphans", 0, async (ctx: BotContext) => {
  const { total, items } = await orphanVisitsOf(ctx.deps, ctx.user!.id, { period: "30d" });
  if (!total) return "👻 <b>Visits to dead codes</b> (last 30 days)\nNone: nobody opened a code of a disabled or deleted link of yours, or an unknown code on your domains.";
  const lines = items.slice(0, SHOWN).map((i) => `<code>${Bun.escapeHTML(i.code)}</code> · ${i.count} · last ${i.lastAt.slice(0, 16).replace("T", " ")} UTC`);
  const more = items.length > SHOWN ? `\n…and ${items.length - SHOWN} more codes (the app lists them all).` : "";
  return `👻 <b>Visits to dead codes</b> (last 30 days): ${total}\nCodes of your disabled or deleted links and unknown codes on your domains, most visited first:\n${lines.join("\n")}${more}`;
});
back(orphansScreen, "⬅️ My links", "links", () => [0, 0]);
