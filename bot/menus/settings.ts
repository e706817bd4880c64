/**
 * Settings (screen `settings`): plan and usage against its limits, sign-in methods, and the lists
 * under it: API tokens, tags, pixels, passkeys and sign-in methods (each removable with
 * confirmation), linking an email by code.
 */
import { accountUsage } from "../../core/accounts/usage";
import { write } from "../audited";
import { listIdentities, unlinkIdentity } from "../../core/accounts/identities";
import { listApiTokens, revokeApiToken } from "../../core/tokens/api-tokens";
import { deleteTag, listTags } from "../../core/catalog/tags";
import { deletePixel, listPixels } from "../../core/catalog/pixels";
import { deletePasskey, listPasskeys } from "../../core/auth/passkeys";
import { NotFound } from "../../core/errors";
import { setUserLanguage } from "../../core/accounts/users";
import { setWorkspaceCurrency, workspaceCurrency } from "../../core/workspaces";
import { date, l, localeOf, num } from "../i18n";
import type { BotContext } from "../context";
import { may, mayChange } from "../workspace";

/** A scope as the reader says it ("read:links" → "ссылки: чтение"); the API's name stays in the API. */
export const scopeName = (ctx: { t: (k: string) => string }, s: string) => ctx.t(`scope-${s === "*" ? "all" : s.replace(":", "-")}`);
import { act, backHome, buttons, createScreen, go, open, payload } from "./nav";
import { createItemList } from "./item-list";
import { workspaceButtons, workspaceLine, workspacesOf } from "./workspaces";

const esc = (s: string) => Bun.escapeHTML(s);
const day = (ctx: BotContext, iso: string | null) => (iso ? date(ctx, iso) : ctx.t("never"));
const bar = (ctx: BotContext, key: string, used: number, limit: number) =>
  ctx.t(key, { used: num(ctx, used), limit: num(ctx, limit) }) + (used >= limit ? ` ${ctx.t("settings-usage-full")}` : "");
export const LINK_EMAIL = "link-email";
export const NEW_TAG = "new-tag";
export const NEW_PIXEL = "new-pixel";
export const NEW_TOKEN = "create-api-token";
/** The currencies Settings offers as the default of ad prices (any ISO code can still be typed with a price). */
const CURRENCIES = ["RUB", "USD", "EUR", "KZT"] as const;
/** Settings' model, read once per draw: plan and usage, sign-in methods, the currency, the workspaces to switch to. */
async function settingsModel(ctx: BotContext) {
  return {
    account: await accountUsage(ctx.deps, ctx.owner.id),
    identities: await listIdentities(ctx.deps, ctx.user.id),
    currency: (await workspaceCurrency(ctx.deps, ctx.owner.id)).effective,
    workspaces: await workspacesOf(ctx),
  };
}

function settingsText(ctx: BotContext, { account, identities: ids, currency }: Awaited<ReturnType<typeof settingsModel>>): string {
  const { subscription: sub, limits, usage } = account;
  const signIn = ids.map((i) =>
    i.provider === "passkey"
      ? ctx.t("settings-sign-in-passkey", { name: esc(String(("name" in i && i.name) || "")) })
      : i.provider === "email"
        ? ctx.t("settings-sign-in-email", { email: esc(i.subject) })
        : ctx.t("settings-sign-in-telegram"),
  );
  const plan = sub.expiresAt
    ? ctx.t("settings-plan-until", { plan: ctx.t(`plan-${sub.plan}`), date: date(ctx, sub.expiresAt) })
    : ctx.t(sub.plan === "free" ? "settings-plan" : "settings-plan-forever", { plan: ctx.t(`plan-${sub.plan}`) });
  return [
    ctx.t("settings-title"),
    "",
    workspaceLine(ctx),
    plan,
    bar(ctx, "settings-usage-links", usage.links, limits.links),
    bar(ctx, "settings-usage-trackers", usage.trackers, limits.trackers),
    bar(ctx, "settings-usage-files", usage.secureFiles, limits.secureFiles),
    ctx.t("settings-storage", {
      // files under a tenth of a megabyte still take room: never "0 of 100 MB" with files stored
      used: usage.storageMB === 0 && usage.secureFiles > 0 ? esc(`< ${num(ctx, 0.1)}`) : num(ctx, usage.storageMB),
      limit: num(ctx, limits.storageMB),
    }),
    "",
    ctx.t("settings-sign-in", { methods: signIn.join(", ") }),
    ctx.t("settings-language"),
    ctx.t("settings-currency", { currency }),
  ].join("\n");
}

export const settingsScreen = createScreen("settings", 0, { load: settingsModel, body: settingsText });
const parent = { id: "settings", label: l("settings-back") };

export const tokens = createItemList({
  id: "tokens",
  parent,
  load: (ctx) => listApiTokens(ctx.deps, ctx.owner.id),
  text: (ctx, all) => {
    if (!all.length) return ctx.t("tokens-empty");
    return [
      ctx.t("tokens-head", { count: all.length }),
      ...all.slice(0, 40).map((t) =>
        ctx.t("tokens-item", {
          name: esc(t.name),
          hint: t.hint,
          scopes: t.scopes.map((s) => scopeName(ctx, s)).join(", "),
          expires: day(ctx, t.expiresAt),
          used: day(ctx, t.lastUsedAt),
        }),
      ),
    ].join("\n");
  },
  label: (ctx, t) => ctx.t("tokens-revoke-label", { name: t.name }),
  gone: () => new NotFound("API token"),
  confirm: (ctx, t) => ctx.t("tokens-confirm", { name: esc(t.name) }),
  remove: (ctx, id) => write(ctx, revokeApiToken, id, { id: ctx.user.id, role: ctx.role }),
  removed: "tokens-removed",
  add: { label: l("tokens-add"), conversation: NEW_TOKEN },
});

export const tags = createItemList({
  id: "tags",
  parent,
  load: (ctx) => listTags(ctx.deps, ctx.owner.id),
  text: (ctx, all) => {
    if (!all.length) return ctx.t("tags-empty");
    // a viewer has no tag buttons to tap: the tags are named here instead
    if (!may(ctx)) return [ctx.t("ws-read-tags", { count: all.length }), ...all.map((t) => `• ${esc(t.name)}`)].join("\n");
    return ctx.t("tags-head", { count: all.length });
  },
  label: (_ctx, t) => t.name,
  gone: () => new NotFound("Tag"),
  confirm: (ctx, t) => ctx.t("tags-confirm", { name: esc(t.name) }),
  remove: async (ctx, id) => {
    mayChange(ctx);
    await write(ctx, deleteTag, id);
  },
  removed: "tags-removed",
  add: { label: l("tags-add"), conversation: NEW_TAG },
  workspace: true,
});

export const pixels = createItemList({
  id: "pixels",
  parent,
  load: (ctx) => listPixels(ctx.deps, ctx.owner.id),
  text: (ctx, all) => {
    if (!all.length) return ctx.t("pixels-empty");
    return [
      ctx.t(may(ctx) ? "pixels-head" : "ws-read-pixels", { count: all.length }),
      ...all.map((p) => `• <b>${esc(p.name)}</b> ${p.type} <code>${esc(p.pixelId)}</code>`),
    ].join("\n");
  },
  label: (_ctx, p) => p.name,
  gone: () => new NotFound("Pixel"),
  confirm: (ctx, p) => ctx.t("pixels-confirm", { name: esc(p.name) }),
  remove: async (ctx, id) => {
    mayChange(ctx);
    await write(ctx, deletePixel, id);
  },
  removed: "pixels-removed",
  add: { label: l("pixels-add"), conversation: NEW_PIXEL },
  workspace: true,
});

export const passkeys = createItemList({
  id: "passkeys",
  parent,
  load: (ctx) => listPasskeys(ctx.deps, ctx.user.id),
  text: (ctx, all) => {
    const hint = ctx.t("passkeys-add-hint", { app: esc(ctx.deps.config.baseUrl) });
    return all.length ? ctx.t("passkeys-head", { count: all.length, hint }) : ctx.t("passkeys-empty", { hint });
  },
  label: (ctx, p) => p.name ?? ctx.t("passkey-unnamed"),
  gone: () => new NotFound("Passkey"),
  confirm: (ctx, p) => ctx.t("passkeys-confirm", { name: esc(p.name ?? ctx.t("passkey-unnamed")) }),
  remove: (ctx, id) => deletePasskey(ctx.deps, ctx.user.id, id),
  removed: "passkeys-removed",
});

/** Telegram and email sign-ins; the Telegram account of this chat is not offered for removal (the bot knows the user by it). */
const unlinkable = async (ctx: BotContext) =>
  (await listIdentities(ctx.deps, ctx.user.id)).filter(
    (i): i is typeof i & { id: number } => "id" in i && !(i.provider === "telegram" && i.subject === String(ctx.from?.id)),
  );
const signInName = (ctx: BotContext, i: { provider: string; subject: string }) =>
  i.provider === "email" ? ctx.t("sign-in-email", { email: i.subject }) : ctx.t("sign-in-telegram", { id: i.subject });

export const signIns = createItemList({
  id: "sign-ins",
  parent,
  load: unlinkable,
  text: (ctx, others) => ctx.t(others.length ? "sign-ins-head" : "sign-ins-none"),
  label: signInName,
  gone: () => new NotFound("Sign-in method"),
  confirm: (ctx, i) => ctx.t("sign-ins-confirm", { name: esc(signInName(ctx, i)) }),
  remove: (ctx, id) => unlinkIdentity(ctx.deps, ctx.user.id, id),
  removed: "sign-ins-removed",
  add: { label: l("settings-link-email"), conversation: LINK_EMAIL },
});

// the workspace first: the switch, Team, a new team
workspaceButtons(settingsScreen);
go(settingsScreen, settingsScreen, l("settings-tokens"), "tokens", () => []);
go(settingsScreen, settingsScreen, l("settings-passkeys"), "passkeys", () => []);
settingsScreen.row();
go(settingsScreen, settingsScreen, l("settings-tags"), "tags", () => []);
go(settingsScreen, settingsScreen, l("settings-pixels"), "pixels", () => []);
settingsScreen.row();
settingsScreen.text({ text: l("settings-link-email"), payload: payload(settingsScreen) }, (ctx) =>
  act(ctx, () => ctx.conversation.enter(LINK_EMAIL)),
);
go(settingsScreen, settingsScreen, l("settings-sign-ins"), "sign-ins", () => []);
settingsScreen.row();
go(settingsScreen, settingsScreen, l("settings-reports"), "reports", () => []);
settingsScreen.row();
// conversions: postbacks out (every postback of the account) and keys for conversions reported in by a GET
go(settingsScreen, settingsScreen, l("pb-settings"), "postbacks", () => [0, 0]);
go(settingsScreen, settingsScreen, l("pbk-settings"), "postback-keys", () => []);
settingsScreen.row();
// the workspace's currency of ad prices: one tap each, the current one marked; a team's is its admins' to set
buttons(settingsScreen, (ctx, range, { currency: current }) => {
  if (!may(ctx, "admin")) return;
  for (const currency of CURRENCIES)
    range.text({ text: current === currency ? `• ${currency} •` : currency, payload: payload(settingsScreen) }, (c) =>
      act(c, async () => {
        mayChange(c, "admin");
        await setWorkspaceCurrency(c.deps, c.user.id, c.owner.id, currency);
        await open(c, settingsScreen, [], c.t("settings-currency-set", { currency }));
      }),
    );
});
settingsScreen.row();
// the other language, in its own words; the choice is kept on the user and used from the next update on
settingsScreen.text({ text: l("settings-switch-language"), payload: payload(settingsScreen) }, (ctx) =>
  act(ctx, async () => {
    const language = localeOf(ctx) === "ru" ? "en" : "ru";
    await setUserLanguage(ctx.deps, ctx.user.id, language);
    ctx.user = { ...ctx.user, language };
    await ctx.i18n.useLocale(language);
    // the keyboard is redrawn in the new language (its labels changed, so it is a new menu to the plugin)
    await open(ctx, settingsScreen, [], ctx.t("settings-language-set"));
  }),
);
settingsScreen.row();
backHome(settingsScreen);
