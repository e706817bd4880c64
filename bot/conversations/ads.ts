/**
 * A placement's options typed in one answer: the ad post's views (when neither MTProto nor the web
 * preview can read them) and the post's URL (`t.me/<channel>/<id>`), each saved through core and the
 * placement's screen drawn again.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { updatePlacement } from "../../core/placements/placements";
import { readViewsFigure } from "../../core/placements/views";
import { open } from "../menus/nav";
import { PLACEMENT_OPTIONS, placementScreen } from "../menus/ads-placement";
import { Refusal } from "../problem";
import { answerOption } from "./option-answer";

type Convo = Conversation<BotContext, DialogContext>;

const OPTIONS = {
  views: {
    label: "ads-set-views",
    prompt: "ads-prompt-views",
    input: (t: string) => {
      const views = readViewsFigure(t);
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
