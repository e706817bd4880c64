/**
 * A placement's options typed in one answer: the ad post's views (when neither MTProto nor the web
 * preview can read them) and the post's URL (`t.me/<channel>/<id>`), each saved through core and the
 * placement's screen drawn again.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { updatePlacement } from "../../core/placements/placements";
import { open } from "../menus/nav";
import { PLACEMENT_OPTIONS, placementScreen } from "../menus/ads-placement";
import { Refusal } from "../problem";
import { answerOption } from "./option-answer";

type Convo = Conversation<BotContext, DialogContext>;

/** Views as people write them: 12000, 12 000, 12,000, 1.2K, 1,2 тыс. */
function readViews(text: string): number | null {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[\s\u00a0\u202f]/g, "");
  const m = /^(\d+(?:[.,]\d+)?)(k|к|тыс\.?|m|м|млн)?$/.exec(t);
  if (!m) return /^\d{1,3}(,\d{3})+$/.test(t) ? Number(t.replace(/,/g, "")) : null;
  const n = Number(m[1]!.replace(",", "."));
  const times = !m[2] ? 1 : /^(k|к|тыс)/.test(m[2]) ? 1_000 : 1_000_000;
  const views = Math.round(n * times);
  return Number.isSafeInteger(views) ? views : null;
}

const OPTIONS = {
  views: {
    label: "ads-set-views",
    prompt: "ads-prompt-views",
    input: (t: string) => {
      const views = readViews(t);
      if (views === null) throw new Refusal("ads-refuse-views");
      return { views };
    },
  },
  post_url: { label: "ads-set-post_url", prompt: "ads-prompt-post-url", input: (t: string) => ({ postUrl: t }), clear: { postUrl: null } },
} as const;

/** Option `index` (PLACEMENT_OPTIONS) of placement `id`: the question, then each answer saved until one is taken. */
export async function placementOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const option = OPTIONS[PLACEMENT_OPTIONS[index] ?? "views"];
  await answerOption(conversation, ctx, option, async (o, text) => {
    const input = text === "/clear" && "clear" in option ? option.clear : option.input(text);
    await updatePlacement(o.deps, o.user.id, id, input);
    await open(o, placementScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
  });
}
