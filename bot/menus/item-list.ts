/**
 * A list screen of things the user can remove (API tokens, tags, pixels, passkeys): one button per
 * item opening a confirmation, an "add" button entering a conversation, and back to its parent.
 */
import type { BotContext } from "../context";
import { l } from "../i18n";
import { writes } from "../workspace";
import type { NotFound } from "../../core/errors";
import { act, back, buttons, createScreen, go, idOf, itemOf, open, payload, type Label, type Screen } from "./nav";

export interface ItemListSpec<T extends { id: number }> {
  /** menu id of the list; the confirmation is `<id>-remove` */
  id: string;
  parent: { id: string; label: Label };
  /** the items, read once per draw: the list's text and buttons, and the confirmation's question */
  load: (ctx: BotContext) => T[] | Promise<T[]>;
  text: (ctx: BotContext, items: T[]) => string;
  /** an item's button label, already translated (a name the user gave, or ctx.t(…)) */
  label: (ctx: BotContext, item: T) => string;
  /** the refusal when the item asked for is gone (a NotFound naming it) */
  gone: () => NotFound;
  /** the confirmation's question for an item */
  confirm: (ctx: BotContext, item: T) => string;
  remove: (ctx: BotContext, id: number) => void | Promise<void>;
  /** the translation key of the notice shown once an item is removed */
  removed: string;
  add?: { label: Label; conversation: string };
  /** the items are the workspace's (tags, pixels): a viewer reads the list without its add and remove buttons */
  workspace?: true;
}

/** The list screen and its confirmation screen; register the confirmation under the list. */
export function createItemList<T extends { id: number }>(spec: ItemListSpec<T>): { list: Screen; confirm: Screen } {
  const list = createScreen(spec.id, 0, { load: spec.load, body: spec.text });
  const confirm = createScreen(`${spec.id}-remove`, 1, {
    load: async (ctx, [id = 0]) => {
      const item = (await spec.load(ctx)).find((x) => x.id === id);
      if (!item) throw spec.gone();
      return item;
    },
    body: spec.confirm,
  });
  buttons(list, (ctx, range, items) => {
    const w = spec.workspace ? writes(ctx, range) : range;
    for (const item of items.slice(0, 40)) {
      go(w, list, l("item-remove-label", { label: spec.label(ctx, item) }), confirm.id, (c) => [itemOf(c, list)], item.id);
      range.row();
    }
    if (spec.add) {
      const add = spec.add;
      w.text({ text: add.label, payload: payload(list) }, (c) => act(c, () => c.conversation.enter(add.conversation)));
    }
  });
  back(list, spec.parent.label, spec.parent.id);
  confirm.text({ text: l("item-remove-yes"), payload: payload(confirm) }, (ctx) =>
    act(
      ctx,
      async () => {
        await spec.remove(ctx, idOf(ctx));
        await open(ctx, list, [], ctx.t(spec.removed));
      },
      spec.id,
    ),
  );
  back(confirm, l("item-keep"), spec.id);
  return { list, confirm };
}
