/**
 * A list screen of things the user can remove (API tokens, tags, pixels, passkeys): one button per
 * item opening a confirmation, an "add" button entering a conversation, and back to its parent.
 */
import type { BotContext } from "../context";
import { l } from "../i18n";
import { writes } from "../workspace";
import { act, back, createScreen, dynamic, go, idOf, itemOf, open, payload, type Label, type Screen } from "./nav";

export interface ItemListSpec {
  /** menu id of the list; the confirmation is `<id>-remove` */
  id: string;
  parent: { id: string; label: Label };
  text: (ctx: BotContext) => string | Promise<string>;
  /** each item's label, already translated (a name the user gave, or ctx.t(…)) */
  items: (ctx: BotContext) => { id: number; label: string }[] | Promise<{ id: number; label: string }[]>;
  /** the confirmation's question for item `id` (throws NotFound when it is gone) */
  confirm: (ctx: BotContext, id: number) => string | Promise<string>;
  remove: (ctx: BotContext, id: number) => void | Promise<void>;
  /** the translation key of the notice shown once an item is removed */
  removed: string;
  add?: { label: Label; conversation: string };
  /** the items are the workspace's (tags, pixels): a viewer reads the list without its add and remove buttons */
  workspace?: true;
}

/** The list screen and its confirmation screen; register the confirmation under the list. */
export function createItemList(spec: ItemListSpec): { list: Screen; confirm: Screen } {
  const list = createScreen(spec.id, 0, spec.text);
  const confirm = createScreen(`${spec.id}-remove`, 1, (ctx) => spec.confirm(ctx, idOf(ctx)));
  dynamic(list, async (ctx, range) => {
    const w = spec.workspace ? writes(ctx, range) : range;
    for (const item of (await spec.items(ctx)).slice(0, 40)) {
      go(w, list, l("item-remove-label", { label: item.label }), confirm.id, (c) => [itemOf(c, list)], item.id);
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
