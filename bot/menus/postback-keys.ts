/**
 * Keys for incoming conversions (screen `postback-keys`, under Settings): a server that can only call
 * a URL reports a conversion with a GET to an address holding a key. ➕ makes a key and sends its
 * address once (only a hash is kept) with a 📋 Copy button; the screen lists the keys that work by
 * name and first characters; 🚫 revokes one (asked once more, screen `postback-key-revoke`).
 */
import type { BotContext } from "../context";
import { write } from "../audited";
import { mayChange, writes } from "../workspace";
import { date, l } from "../i18n";
import { act, back, buttons, createScreen, go, idOf, itemOf, open, payload, type Screen } from "./nav";
import { createPostbackKey, listPostbackKeys, revokePostbackKey, type PostbackKeyView } from "../../core/conversions/keys";
import { NotFound } from "../../core/errors";

const esc = (s: string) => Bun.escapeHTML(s);
/** The keys that still work, newest first. */
const liveKeys = async (ctx: BotContext) => (await listPostbackKeys(ctx.deps, ctx.owner.id)).filter((k) => !k.revoked_at);
/** A key as its line and button name it: its first characters. */
const hintOf = (k: PostbackKeyView) => `${k.prefix}…`;

const keysScreen = createScreen("postback-keys", 0, {
  load: liveKeys,
  body: (ctx, keys) => {
    const head = ctx.t("pbk-title");
    if (!keys.length) return `${head}\n\n${ctx.t("pbk-none")}`;
    return [
      head,
      "",
      ctx.t("pbk-how"),
      "",
      ...keys.map((k) => ctx.t("pbk-item", { key: `<code>${esc(hintOf(k))}</code>`, name: esc(k.name), made: date(ctx, k.created_at) })),
    ].join("\n");
  },
});

const revokeScreen = createScreen("postback-key-revoke", 1, {
  load: async (ctx, [id = 0]) => {
    const key = (await liveKeys(ctx)).find((k) => k.id === id);
    if (!key) throw new NotFound("Postback key");
    return key;
  },
  body: (ctx, key) => ctx.t("pbk-revoke-confirm", { key: `<code>${esc(hintOf(key))}</code>` }),
});

buttons(keysScreen, (ctx, range, keys) => {
  // a viewer reads which keys work; making and revoking them is for editors and up
  const w = writes(ctx, range);
  for (const k of keys.slice(0, 20)) {
    go(w, keysScreen, ctx.t("pbk-revoke-label", { key: hintOf(k) }), revokeScreen.id, (c) => [itemOf(c, keysScreen)], k.id);
    range.row();
  }
  w.text({ text: l("pbk-new"), payload: payload(keysScreen) }, (c) =>
    act(c, async () => {
      mayChange(c);
      // named after its day; the API lets a key be named
      const made = await write(c, createPostbackKey, c.t("pbk-default-name", { date: date(c, c.deps.clock.now()) }));
      await c.reply(c.t("pbk-made", { url: `<code>${esc(made.url)}</code>` }), {
        link_preview_options: { is_disabled: true },
        reply_markup: { inline_keyboard: [[{ text: c.t("pbk-copy"), copy_text: { text: made.url } }]] },
      });
      await open(c, keysScreen, []);
    }),
  );
  range.row();
});
back(keysScreen, l("settings-back"), "settings");

revokeScreen.text({ text: l("pbk-revoke-yes"), payload: payload(revokeScreen) }, (ctx) =>
  act(
    ctx,
    async () => {
      mayChange(ctx);
      await write(ctx, revokePostbackKey, idOf(ctx));
      await open(ctx, keysScreen, [], ctx.t("pbk-revoked"));
    },
    "postback-keys",
  ),
);
back(revokeScreen, l("item-keep"), "postback-keys");

/** The keys' screens under `parent` (Settings). */
export function registerPostbackKeys(parent: Screen) {
  parent.register(keysScreen);
  keysScreen.register(revokeScreen);
}
