import { afterAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openSignedIn, withBrowserApp, screenshot, type Server } from "../helpers/browser";
import { recordMemberChange } from "../../core/channels/members";
import { chatOwnersTelegram } from "../helpers/chat-owners";

let browser: Browser;
let s: Server;
// Telegram vouches that the marketer runs the channel (getChatMember) before its figures are shown
const telegram = chatOwnersTelegram();
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: telegram.env }),
);
afterAll(() => telegram.stop());

describe("channels in the dashboard", () => {
  test("the list, a channel's figures, its invites with retention and cost, and the joins/leaves chart", async () => {
    const { user, token } = await s.telegramUser(4242, "marketer");
    const db = s.deps.asyncDb;
    const { channels, channelInvites } = db.tables;
    const chatId = "-1003333333333";
    telegram.runs(chatId, 4242);
    const [channel] = await db
      .insert(channels)
      .values({ userId: user.id, chatId, type: "channel", title: "Crypto Daily", username: "cryptodaily", members: 5120, canInvite: true })
      .returning();
    const invite = async (name: string, amount: number) =>
      (
        await db
          .insert(channelInvites)
          .values({
            userId: user.id,
            channelId: channel!.id,
            chatId,
            name,
            inviteLink: `https://t.me/+${name.replace(/\W/g, "")}`,
            cost: { amount, currency: "USD" },
          })
          .returning()
      )[0]!;
    const a = await invite("Ad in Bitcoin News", 120);
    await invite("Ad in DeFi Weekly", 80);
    const now = Math.floor(s.clock.now().getTime() / 1000);
    for (let i = 0; i < 12; i++) {
      const joined = now - (10 - (i % 10)) * 86_400;
      await recordMemberChange(s.deps, {
        chatId,
        member: { id: 100 + i, firstName: `P${i}` },
        oldStatus: "left",
        newStatus: "member",
        date: joined,
        inviteLink: i % 4 === 3 ? null : a.inviteLink,
      });
      if (i % 3 === 0)
        await recordMemberChange(s.deps, {
          chatId,
          member: { id: 100 + i },
          oldStatus: "member",
          newStatus: "left",
          date: joined + 86_400,
        });
    }

    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/channels`);
    await page.getByRole("link", { name: /Crypto Daily/ }).click();
    await page.getByTestId("channel-figures").waitFor();
    expect(await page.getByTestId("channel-figures").innerText()).toBe("5120\nmembers\n+12\njoined\n−4\nleft\n3\nunattributed");
    // the invites load after the figures (each needs its own stats): wait for their table
    await page.getByTestId("invites").waitFor();
    const rows = await page.getByTestId("invites").locator("tbody tr").allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain("Ad in Bitcoin News");
    expect(rows[1]!.split("\t").slice(1)).toEqual(["0", "9", "3", "75 %", "9", "13.33 USD", "40.00 USD"]); // its 9 joins are its conversions
    await page.locator("canvas[data-ready='1']").waitFor();
    await page.getByRole("combobox", { name: "Chart of" }).selectOption({ label: "Ad in Bitcoin News" });
    await page.locator("canvas[data-ready='1']").waitFor();
    await screenshot(page, "channels");
    expect(problems).toEqual([]);
  });
});
