/**
 * docs/bot.md's flow table, measured: every "From /start" and "From a pasted URL" cell that names its
 * taps (`3: 🔒 Secure sharing → the folder → ⏸ Pause sharing`) is driven through the bot as written,
 * button by button, on an account holding one of each object, and its number must be the taps it took
 * (at most 3). A label in the docs that no button carries, a count that is off, or a flow over 3 taps
 * fails here, so the table cannot drift from the bot. The same flows are walked again by a user whose
 * Telegram speaks Russian, each label taken from the same key of ru.ftl, and every screen they show
 * must hold no English.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { InlineKeyboardButton } from "grammy/types";
import { unitBot } from "./unit";
import { expectRussian } from "../helpers/russian";
import { upsertTelegramUser } from "../../core/accounts/users";
import { createFolder } from "../../core/secure/folders";
import { createFile } from "../../core/secure/files";
import { createShareLink as createShare } from "../../core/secure/share-links";
import { createRequest } from "../../core/secure/requests";
import { createLink } from "../../core/links/links";
import { createTag } from "../../core/catalog/tags";
import { createApiToken } from "../../core/tokens/api-tokens";
import { createPlacement } from "../../core/placements/placements";
import { createPostback } from "../../core/conversions/postbacks";
import { createPostbackKey } from "../../core/conversions/keys";
import { eq } from "drizzle-orm";
import { t } from "../../core/i18n/translate";

type Row = { flow: string; cell: string; from: "start" | "paste" };

/** The table's cells that count taps ("N: step → step …"), with their flow. */
function measuredCells(): Row[] {
  const doc = readFileSync(join(import.meta.dir, "..", "..", "docs", "bot.md"), "utf8");
  const start = doc.indexOf("| Flow | From `/start`");
  const table = doc.slice(start, doc.indexOf("\n\n", start));
  const rows: Row[] = [];
  for (const line of table.split("\n").slice(2)) {
    const [flow, start, paste] = line
      .split(/(?<!\\)\|/)
      .slice(1, 4)
      .map((c) => c.trim());
    if (!flow) continue;
    if (/^\d: /.test(start!) && !start!.includes("under the bot's message")) rows.push({ flow, cell: start!, from: "start" });
    if (/^[1-9]: /.test(paste!)) rows.push({ flow, cell: paste!, from: "paste" });
  }
  return rows;
}

/** The account's objects, named in the user's language (a Russian user's data is Russian too). */
const NAMES = {
  en: {
    link: "Spring sale",
    folder: "Contracts",
    memo: "memo",
    request: "Scans",
    tracker: "rust",
    channel: "Ads Club",
    invite: "Ad one",
    tag: "spring",
    placement: "Big channel",
  },
  ru: {
    link: "Весенняя распродажа",
    folder: "Договоры",
    memo: "памятка",
    request: "Сканы",
    tracker: "скидка",
    channel: "Клуб рекламы",
    invite: "Реклама один",
    tag: "весна",
    placement: "Большой канал",
  },
} as const;
const names = () => NAMES[lang];

/** What the docs call an object, as the button that opens it reads in this account. */
const OBJECTS: Record<string, () => RegExp> = {
  "the link": () => new RegExp(names().link),
  "the folder": () => new RegExp(`^📁 ${names().folder}`),
  "the tracker": () => new RegExp(names().tracker),
  "the channel": () => new RegExp(`^📣 ${names().channel}`),
  "the invite": () => new RegExp(`^🔗 ${names().invite}`),
  "the format": () => /^CSV$|csv/i,
  "the item": () => /^ci\b|ci$/,
  "the sign-in": () => /mail@example\.com/,
  "the placement": () => new RegExp(`^\\d+\\. ${names().placement}$`),
  "the postback": () => /^📮 1\. /,
  "the key": () => /^🚫 /,
};
/** "the option" of each flow: the first option its screen offers (an English label, translated like the docs' own). */
const OPTION_OF: Record<string, string> = {
  "Change an option of a link": "✏️ Title",
  "Change a tracker": "🔤 Keyword",
  "Change an invite; see its figures": "✏️ Name",
  "Password or view messages for a share link": "🔒 Set password",
};

/** The single-line entries of a language file: key → text. */
function labels(file: string): Map<string, string> {
  const src = readFileSync(join(import.meta.dir, "..", "..", "locales", file), "utf8");
  return new Map([...src.matchAll(/^([a-z][\w-]*) = (.+)$/gm)].map((m) => [m[1]!, m[2]!]));
}
const EN = labels("en.ftl");
const RU = labels("ru.ftl");

/** A button's English label as the docs write it, in `lang`: the same key's text in that language. */
function inLanguage(lang: "en" | "ru", label: string): string {
  if (lang === "en") return label;
  const key = [...EN].find(([, v]) => v === label)?.[0] ?? [...EN].find(([, v]) => v.startsWith(`${label}:`))?.[0];
  return key ? (RU.get(key) ?? label) : label;
}
/** Rows that "on its row" / "on the file's row" refer to, by flow. */
const ROW_OF: Record<string, () => RegExp> = {
  "Share a stored file": () => new RegExp(`^📄 ${names().memo}`),
  "Delete a file": () => new RegExp(`^📄 ${names().memo}`),
  "Revoke or restore a share link": () => new RegExp(`${names().memo} · `),
  "Delete a share link": () => new RegExp(`${names().memo} · `),
  "Turn a request link off/on": () => new RegExp(names().request),
  "Delete a request link": () => new RegExp(names().request),
  "Test a postback": () => /^📮 1\. /,
  "Delete a postback": () => /^📮 1\. /,
};

let b: ReturnType<typeof unitBot>;
let urls: { link: string; share: string; request: string };
let lang: "en" | "ru" = "en";

/** An account holding one of each object, for a user whose Telegram speaks `language`. */
async function setUp(language: "en" | "ru") {
  lang = language;
  b = unitBot({ SHORT_URL: "https://s.example" }, { language_code: language });
  const deps = b.t.deps;
  const user = await upsertTelegramUser(deps, { id: 42, username: "alice", firstName: "Alice" });
  const link = await createLink(deps, user, { url: "https://shop.example/spring", title: names().link });
  const folder = await createFolder(deps, user.id, { name: names().folder });
  const memo = await createFile(deps, user.id, { folderId: folder.id, name: names().memo, contentType: "text", textContent: "hi" });
  const share = await createShare(deps, user.id, { fileId: memo.id, expiresInHours: 24, maxViews: 5 });
  const request = await createRequest(deps, user.id, { folderId: folder.id, title: names().request });
  await createTag(deps, user.id, names().tag);
  await createApiToken(deps, user.id, { name: "ci", scopes: ["read:links"] });
  const db = deps.asyncDb;
  const now = deps.clock.now();
  // a webhook on the link, so its card offers the webhook's screen
  await db
    .update(db.tables.links)
    .set({ webhookUrl: "https://hooks.example/in", webhookMethod: "POST" })
    .where(eq(db.tables.links.id, link.id));
  await db.insert(db.tables.trackers).values({ userId: user.id, name: names().tracker, keyword: names().tracker, createdAt: now });
  await db.insert(db.tables.identities).values({ userId: user.id, provider: "email", subject: "mail@example.com", createdAt: now });
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId: user.id, chatId: "-100777", type: "channel", title: names().channel, botIsAdmin: true, canInvite: true })
    .returning();
  await db
    .insert(db.tables.channelInvites)
    .values({ userId: user.id, channelId: channel!.id, chatId: "-100777", name: names().invite, inviteLink: "https://t.me/+adone" });
  b.fake.members.set("-100777:42", { status: "creator" }); // Telegram's word: alice runs the channel
  await createPlacement(deps, user, { venue: "@bigchannel", name: names().placement, cost: { amount: 5000, currency: "RUB" } });
  // an account-wide postback and a key for incoming conversions (the link and the placement have no postback of their own)
  await createPostback(deps, user.id, { url: "https://hooks.example/pb?cid={click_id}", events: ["purchase"] });
  await createPostbackKey(deps, user.id, "server");
  urls = { link: `https://s.example/${link.code}`, share: share.url, request: request.url };
}

/**
 * The newest button whose label is `label` (or, when no button has it exactly, one that starts with it
 * and a colon: the docs shorten "🔔 Webhook: test, deliveries, secret"), optionally on a row led by `row`.
 */
function find(label: RegExp | string, row?: RegExp) {
  if (typeof label === "string") return findWhere((text) => text === label, row) ?? findWhere((text) => text.startsWith(`${label}:`), row);
  return findWhere((text) => label.test(text), row);
}

function findWhere(fits: (text: string) => boolean, row?: RegExp) {
  for (let i = b.calls.length - 1; i >= 0; i--) {
    const rows = b.calls[i]!.params.reply_markup?.inline_keyboard as InlineKeyboardButton[][] | undefined;
    for (const r of rows ?? []) {
      if (row && !row.test(r[0]?.text ?? "")) continue;
      const button = r.find((x) => fits(x.text));
      if (button) return { button, call: b.calls[i]! };
    }
  }
  return null;
}

/** Presses one step of a path as the docs write it (the first of its alternatives "A / B" that the screen offers). */
async function step(flow: string, text: string): Promise<void> {
  const onRow = /^(.+?) on (?:its|the file's) row$/.exec(text);
  const alternatives = (onRow ? onRow[1]! : text).split(" / ").map((a) => a.trim());
  const wanted = alternatives.map((label) =>
    label === "the option" ? inLanguage(lang, OPTION_OF[flow]!) : (OBJECTS[label]?.() ?? inLanguage(lang, label)),
  );
  const found = wanted.map((w) => find(w, onRow ? ROW_OF[flow]!() : undefined)).find(Boolean);
  if (!found)
    throw new Error(
      `${flow}: no button "${text}" on the screen; buttons: ${JSON.stringify(b.calls.findLast((c) => c.params.reply_markup)?.params.reply_markup?.inline_keyboard?.map((r: any[]) => r.map((x) => x.text)))}`,
    );
  // a URL button (a guide, the app) is a tap that leaves the bot: it counts, and ends the flow
  if (!("callback_data" in found.button)) return;
  const before = b.calls.length;
  await b.tap(found.button.callback_data, Number(found.call.params.message_id ?? found.call.result?.message_id));
  const answered = b.calls.slice(before);
  expect({ flow, step: text, answered: answered.some((c) => /^(edit|send)/.test(c.method) || c.params.show_alert === undefined) }).toEqual({
    flow,
    step: text,
    answered: true,
  });
}

/** An answer a dialog asks for: a typed message, or one press on the question's own buttons (a translation key). */
type Answer = { type: string } | { press: string; vars?: Record<string, string | number> };

/**
 * Flows whose answers are walked too (the answers are not taps: each is one message, or one press on
 * the button of the question being asked), with what must then be true in the account.
 */
const ANSWERS: Record<string, { answers: () => Answer[]; check: () => Promise<void> }> = {
  "Make an invite link for an ad": {
    answers: () => [{ type: lang === "en" ? "Crypto Daily" : "Крипто дейли" }, { press: "invite-mode-open" }, { type: "5 000 ₽" }],
    check: async () => {
      const db = b.t.deps.asyncDb;
      const [invite] = await db
        .select()
        .from(db.tables.channelInvites)
        .where(eq(db.tables.channelInvites.name, lang === "en" ? "Crypto Daily" : "Крипто дейли"));
      expect(invite?.cost).toEqual({ amount: 5000, currency: "RUB" });
      expect(lastText()).toContain(t(lang, "invite-made-priced"));
    },
  },
  "Share a stored file": {
    answers: () => [{ press: "share-hours", vars: { hours: 24, days: 1 } }, { type: "3" }, { type: "open sesame" }],
    check: async () => {
      const db = b.t.deps.asyncDb;
      const links = await db.select().from(db.tables.secureLinks);
      const made = links.at(-1)!;
      expect({ views: made.maxViews, password: made.passwordHash !== null }).toEqual({ views: 3, password: true });
      // the typed password is taken out of the chat
      expect(b.calls.some((c) => c.method === "deleteMessage")).toBe(true);
      expect(lastText()).toContain(t(lang, "share-created-password"));
    },
  },
  "Create an API token": {
    answers: () => [{ type: "zapier" }, { press: "token-preset-read" }],
    check: async () => {
      const db = b.t.deps.asyncDb;
      const [token] = await db.select().from(db.tables.apiTokens).where(eq(db.tables.apiTokens.name, "zapier"));
      expect(token?.scopes).toEqual([
        "read:links",
        "read:stats",
        "read:channels",
        "read:pixels",
        "read:secure",
        "read:tracking",
        "read:conversions",
        "read:webhooks",
      ]);
    },
  },
};

const lastText = () => String(b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")?.params.text);

/** Gives the answers of a flow: typed, or pressed on the newest message that carries the button. */
async function answer(flow: string, answers: Answer[]) {
  for (const a of answers) {
    if ("type" in a) {
      await b.send(a.type);
      continue;
    }
    const label = t(lang, a.press, a.vars);
    const found = find(label);
    if (!found) throw new Error(`${flow}: no answer button "${label}"`);
    await b.tap(
      (found.button as { callback_data: string }).callback_data,
      Number(found.call.params.message_id ?? found.call.result?.message_id),
    );
  }
}

/** The steps of a cell: "3: A → B → C, then answer **+ Yes**" → [A, B, C]; "…" is the way to a link's card. */
function stepsOf(cell: string): { taps: number; steps: string[]; yes: boolean } {
  const [, n, path] = /^(\d): (.*)$/.exec(cell)!;
  const yes = path!.includes("**+ Yes**");
  const steps = path!
    .replace(/\s*\*\*\+ Yes\*\*.*/, "")
    .replace(/,? then .*$/, "")
    .replace(/ \(.*\)$/, "")
    .split(" → ")
    .flatMap((s) => (s === "…" ? ["🔗 Links"] : [s.trim()]));
  return { taps: Number(n), steps, yes };
}

for (const language of ["en", "ru"] as const)
  describe(`docs/bot.md's tap counts, measured (${language === "en" ? "in English" : "in Russian, as a Russian-speaking user walks them"})`, () => {
    beforeAll(() => setUp(language));
    afterAll(() => b.close());
    const cells = measuredCells();
    test("the table has the flows to measure", () => {
      expect(cells.length).toBeGreaterThan(30);
    });
    for (const { flow, cell, from } of cells)
      test(`${flow} (${from === "start" ? "from /start" : "from a pasted URL"}): ${cell.slice(0, 70)}`, async () => {
        const { taps, steps, yes } = stepsOf(cell);
        const before = b.calls.length;
        if (from === "start") await b.send("/start");
        else
          await b.send(
            /share link/i.test(flow) || /Password or view/.test(flow) ? urls.share : /request link/i.test(flow) ? urls.request : urls.link,
          );
        for (const s of steps) await step(flow, s);
        expect({ flow, taps: steps.length }).toEqual({ flow, taps });
        const script = from === "start" ? ANSWERS[flow] : undefined;
        if (script) {
          await answer(flow, script.answers());
          await script.check();
        }
        expect(taps).toBeLessThanOrEqual(3);
        // the confirmation is there to press (not pressed: the objects stay for the next flows)
        if (yes) expect(find(language === "en" ? /Yes/ : /Да/)).not.toBeNull();
        // every screen of the flow in the user's language: no English sentence, no run of English words
        if (language === "ru") expectRussian(b.calls, before);
      });
  });
