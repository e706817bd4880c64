/**
 * The answers of the dialogs that make things in one go, in English and Russian, on the fake Bot
 * API: a few-way option is a press (typed words still read, `да` among them where it means yes), a
 * price or a password that breaks the rule is refused with the rule and asked again, scopes can be
 * typed as one answer.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { unitBot } from "./unit";
import { upsertTelegramUser } from "../../core/accounts/users";
import { createFolder } from "../../core/secure/folders";
import { createFile } from "../../core/secure/files";
import { t } from "../../core/i18n/translate";
import { expectRussian } from "../helpers/russian";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const texts = (from: number) =>
  b.calls
    .slice(from)
    .filter((c) => c.method === "sendMessage" || c.method === "editMessageText")
    .map((c) => String(c.params.text));
const lastText = () => texts(0).at(-1)!;

/** Alice runs a channel with one invite that takes join requests. */
async function channelWithInvite(language: "en" | "ru") {
  b = unitBot({}, { language_code: language });
  const deps = b.t.deps;
  const user = await upsertTelegramUser(deps, { id: 42, username: "alice", firstName: "Alice" });
  const db = deps.asyncDb;
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId: user.id, chatId: "-100777", type: "channel", title: "Клуб", botIsAdmin: true, canInvite: true })
    .returning();
  const [invite] = await db
    .insert(db.tables.channelInvites)
    .values({
      userId: user.id,
      channelId: channel!.id,
      chatId: "-100777",
      name: "Ad",
      inviteLink: "https://t.me/+ad",
      joinRequest: true,
      approve: "auto",
    })
    .returning();
  b.fake.members.set("-100777:42", { status: "creator" });
  return { user, channel: channel!, invite: invite!, db };
}

for (const language of ["en", "ru"] as const) {
  test(`${language}: an invite's approval is two buttons; a typed word is still read; a wrong word gets the rule`, async () => {
    const { invite, db } = await channelWithInvite(language);
    const before = b.calls.length;
    await b.send(`/start invite_${invite.id}`);
    await b.press(t(language, "invite-option-approval"));
    const asked = b.calls.findLast((c) => c.method === "sendMessage")!;
    expect(b.labels(asked)).toEqual([
      [t(language, "invite-approval-auto")],
      [t(language, "invite-approval-manual")],
      [t(language, "choice-cancel")],
    ]);
    await b.press(t(language, "invite-approval-manual"));
    const [manual] = await db.select().from(db.tables.channelInvites).where(eq(db.tables.channelInvites.id, invite.id));
    expect(manual!.approve).toBe("manual");
    expect(lastText()).toStartWith(t(language, "option-saved", { option: t(language, "invite-option-approval").replace(/^\S+\s/, "") }));
    // typed: a word that is none gets the rule; the language's own word is read
    await b.press(t(language, "invite-option-approval"));
    await b.send("maybe");
    expect(lastText()).toBe(t(language, "invite-refuse-approval"));
    await b.send(language === "en" ? "auto" : "авто");
    const [auto] = await db.select().from(db.tables.channelInvites).where(eq(db.tables.channelInvites.id, invite.id));
    expect(auto!.approve).toBe("auto");
    if (language === "ru") expectRussian(b.calls, before);
  });

  test(`${language}: a new invite's price is asked in the dialog; a price that is none gets the rule`, async () => {
    const { channel, db } = await channelWithInvite(language);
    await b.send(`/start channel_${channel.id}`);
    await b.press(t(language, "channel-new-invite"));
    await b.send("Spring");
    await b.press(t(language, "invite-mode-requests"));
    expect(lastText()).toBe(t(language, "invite-ask-price", { currency: language === "en" ? "USD" : "RUB" }));
    await b.send("a lot");
    expect(lastText()).toBe(t(language, "invite-price-rule", { currency: language === "en" ? "USD" : "RUB" }));
    await b.send("150");
    const [made] = await db.select().from(db.tables.channelInvites).where(eq(db.tables.channelInvites.name, "Spring"));
    expect({ cost: made!.cost, joinRequest: made!.joinRequest }).toEqual({
      cost: { amount: 150, currency: language === "en" ? "USD" : "RUB" },
      joinRequest: true,
    });
    expect(lastText()).toStartWith(t(language, "invite-made-priced"));
  });

  test(`${language}: "No price yet" makes the invite without one`, async () => {
    const { channel, db } = await channelWithInvite(language);
    await b.send(`/start channel_${channel.id}`);
    await b.press(t(language, "channel-new-invite"));
    await b.send("Free");
    await b.press(t(language, "invite-mode-open"));
    await b.press(t(language, "invite-no-price"));
    const [made] = await db.select().from(db.tables.channelInvites).where(eq(db.tables.channelInvites.name, "Free"));
    expect(made!.cost).toBeNull();
    expect(lastText()).toStartWith(t(language, "invite-made"));
  });

  test(`${language}: a share link's password is asked in the dialog, taken out of the chat, and a short one is refused with the rule`, async () => {
    b = unitBot({}, { language_code: language });
    const deps = b.t.deps;
    const user = await upsertTelegramUser(deps, { id: 42, username: "alice", firstName: "Alice" });
    const folder = await createFolder(deps, user.id, { name: "F" });
    await createFile(deps, user.id, { folderId: folder.id, name: "memo", contentType: "text", textContent: "hi" });
    await b.send("/secure");
    await b.press(/^📁 F/);
    await b.press("🔗");
    await b.press(t(language, "share-hours", { hours: 168, days: 7 }));
    await b.press(t(language, "share-views-unlimited"));
    expect(lastText()).toBe(t(language, "share-ask-password", { min: 4, max: 128 }));
    await b.send("abc");
    expect(b.last("deleteMessage")).toBeTruthy();
    expect(lastText()).toBe(t(language, "share-password-rule", { min: 4, max: 128 }));
    await b.send("abcd1234");
    const [link] = await deps.asyncDb.select().from(deps.asyncDb.tables.secureLinks);
    expect(link!.passwordHash).not.toBeNull();
    expect(b.calls.filter((c) => c.method === "deleteMessage")).toHaveLength(2);
    expect(lastText()).toContain(t(language, "share-created-password"));
  });

  test(`${language}: a token's scopes typed as one answer, in the reader's words; a word that names none gets the list`, async () => {
    b = unitBot({}, { language_code: language });
    await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
    await b.send("/settings");
    await b.press(t(language, "settings-tokens"));
    await b.press(t(language, "tokens-add"));
    await b.send("ci");
    await b.send(language === "en" ? "links: read, wings" : "ссылки: чтение, крылья");
    expect(lastText()).toStartWith(t(language, "token-scopes-rule", { names: "" }).split(":")[0]!);
    await b.send(language === "en" ? "links: read, stats: read" : "ссылки: чтение, статистика: чтение");
    const db = b.t.deps.asyncDb;
    const [token] = await db.select().from(db.tables.apiTokens);
    expect(token!.scopes).toEqual(["read:links", "read:stats"]);
  });
}

test("scopes typed as the API writes them, and “all”", async () => {
  const { readScopes } = await import("../../bot/conversations/settings");
  const ctx = { t: (k: string) => t("ru", k) };
  expect(readScopes(ctx, "read:links write:links")).toEqual(["read:links", "write:links"]);
  expect(readScopes(ctx, "всё")).toEqual(["*"]);
  expect(readScopes(ctx, "Ссылки:  Чтение")).toEqual(["read:links"]);
  expect(readScopes(ctx, "links")).toBeNull();
});
