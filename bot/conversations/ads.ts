/**
 * A placement's options typed in one answer: the ad post's views (when neither MTProto nor the web
 * preview can read them), the post's URL (`t.me/<channel>/<id>`), the price (as people write it, a
 * number alone in the account's currency), the publication date (in the user's time zone), the name
 * and the notes, each saved through core and the placement's screen drawn again.
 */
import type { Conversation } from "@grammyjs/conversations";
import { write } from "../audited";
import type { BotContext, DialogContext } from "../context";
import { updatePlacement } from "../../core/placements/placements";
import { readViewsFigure } from "../../core/placements/views";
import type { PlacementInput } from "../../core/placements/input";
import { parseWhen } from "../../core/links/when";
import { whenExamples } from "../../core/i18n/wall";
import { readerOf } from "../i18n";
import { open } from "../menus/nav";
import { PLACEMENT_OPTIONS, placementScreen } from "../menus/ads-placement";
import { Refusal } from "../problem";
import { answerOption } from "./option-answer";

type Convo = Conversation<BotContext, DialogContext>;

type Option = { label: string; prompt: string; input: (t: string, o: BotContext) => PlacementInput; clear?: PlacementInput };

const OPTIONS: Record<(typeof PLACEMENT_OPTIONS)[number], Option> = {
  views: {
    label: "ads-set-views",
    prompt: "ads-prompt-views",
    input: (t) => {
      const views = readViewsFigure(t);
      if (views === null) throw new Refusal("ads-refuse-views");
      return { views };
    },
  },
  post_url: { label: "ads-set-post_url", prompt: "ads-prompt-post-url", input: (t) => ({ postUrl: t }), clear: { postUrl: null } },
  // core reads a price as people write it, a number alone in the account's currency
  cost: { label: "ads-set-cost", prompt: "ads-prompt-cost", input: (t) => ({ cost: t }), clear: { cost: null } },
  publish_at: {
    label: "ads-set-publish_at",
    prompt: "ads-prompt-publish-at",
    input: (t, o) => {
      const now = o.deps.clock.now();
      const reader = readerOf(o);
      const at = parseWhen(t, now, reader.zone, { nearest: true });
      if (!at) throw new Refusal("ads-refuse-publish-at", { when: whenExamples(reader, now) });
      return { publishAt: at };
    },
    clear: { publishAt: null },
  },
  name: { label: "ads-set-name", prompt: "ads-prompt-name", input: (t) => ({ name: t }) },
  notes: { label: "ads-set-notes", prompt: "ads-prompt-notes", input: (t) => ({ notes: t }), clear: { notes: null } },
};

/** Option `index` (PLACEMENT_OPTIONS) of placement `id`: the question, then each answer saved until one is taken. */
export async function placementOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const option = OPTIONS[PLACEMENT_OPTIONS[index] ?? "views"];
  await answerOption(conversation, ctx, option, async (o, text) => {
    const input = text === "/clear" && option.clear ? option.clear : option.input(text, o);
    await write(o, updatePlacement, id, input);
    await open(o, placementScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
  });
}
