/**
 * Three placements with figures small enough to check by hand, for the Ads screens and exports.
 * @both-databases: through the seam.
 *
 * Now is the clock's time (T). In channel -100777 (owned by the user):
 * - "Big channel" (@bigchannel, 5 000 RUB, published T−10 d): a link with 12 clicks (10 unique) and an
 *   invite with 4 joins at T−9 d, one of whom left an hour later → stayed 3 of 4 after 24 h and 7 days;
 *   views read at T−10 d+3 h (4,000), +12 h (11,000), T−9 d (15,000), T−7 d (18,500), then 20,000 typed
 *   by hand now → CPM 250, CPC 500, 1 250 per join, 1 666.67 per subscriber who stayed.
 * - "Cheap ads" (@cheapads, 3 000 RUB, T−10 d): a link with 6 unique clicks, an invite with 2 joins at
 *   T−9 d, nobody left → 1 500 per join and per subscriber who stayed; no views.
 * - "VK group" (free text, no price, T−60 d): a link with 3 unique clicks at T−59 d; no joins. Only in
 *   the 90-day and all-time tables.
 */
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps";
import type { UserRow } from "../../core/accounts/users";
import { recordMemberChange } from "../../core/channels/members";
import { bindInvite, bindLink, createPlacement, updatePlacement } from "../../core/placements/placements";
import { insertLink, recordClicks } from "./clicks";
import { recordViews } from "../../core/placements/views";
import type { ManualClock } from "../../core/clock";

const DAY = 86_400_000;
const CHAT = "-100777";

/** `tag` keeps the chat and invite links of several accounts on one server apart. */
export async function placementsFixture(deps: Deps & Parameters<typeof recordClicks>[0], user: UserRow, tag = "") {
  const db = deps.asyncDb;
  const chat = `${CHAT}${tag}`;
  const now = deps.clock.now().getTime();
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId: user.id, chatId: chat, type: "channel", title: "My shop", botIsAdmin: true, canInvite: true })
    .returning();
  const invite = async (name: string) =>
    (
      await db
        .insert(db.tables.channelInvites)
        .values({ userId: user.id, channelId: channel!.id, chatId: chat, name, inviteLink: `https://t.me/+${name}${tag}` })
        .returning()
    )[0]!;
  let member = 1000;
  const joins = async (link: string, n: number, at: number, leftAfter?: number) => {
    for (let i = 0; i < n; i++) {
      const id = member++;
      await recordMemberChange(deps, {
        chatId: chat,
        member: { id, firstName: `P${id}` },
        oldStatus: "left",
        newStatus: "member",
        date: Math.floor(at / 1000),
        inviteLink: link,
      });
      if (i === 0 && leftAfter !== undefined)
        await recordMemberChange(deps, {
          chatId: chat,
          member: { id },
          oldStatus: "member",
          newStatus: "left",
          date: Math.floor((at + leftAfter) / 1000),
        });
    }
  };
  const clicks = async (linkId: number, unique: number, repeats: number, at: number) => {
    const link = (await db.select().from(db.tables.links)).find((l) => l.id === linkId)!;
    await recordClicks(deps, link, [
      ...Array.from({ length: unique }, (_, i) => ({ at: at + i * 1000, isBot: false, isUnique: true })),
      ...Array.from({ length: repeats }, (_, i) => ({ at: at + 60_000 + i * 1000, isBot: false, isUnique: false })),
    ]);
    // the link's running counters, as the click writer keeps them beside the rows
    await db
      .update(db.tables.links)
      .set({ totalClicks: unique + repeats, uniqueClicks: unique })
      .where(eq(db.tables.links.id, linkId));
  };
  const make = async (name: string, venue: string, cost: { amount: number; currency: string } | null, published: number) => {
    const p = await createPlacement(deps, user, { venue, name, ...(cost ? { cost } : {}), publishAt: new Date(published) });
    const link = await insertLink(deps, user.id, { url: `https://shop.example/${name.replace(/\W/g, "")}` });
    await bindLink(deps, user.id, p.id, link.id);
    return { placement: p, link };
  };

  const big = await make("Big channel", "@bigchannel", { amount: 5000, currency: "RUB" }, now - 10 * DAY);
  const bigInvite = await invite("bigad");
  await bindInvite(deps, user.id, big.placement.id, bigInvite.id);
  await clicks(big.link.id, 10, 2, now - 9 * DAY);
  await joins(bigInvite.inviteLink, 4, now - 9 * DAY, 3_600_000);
  // the post's views as read over its first days (a curve), the last typed by hand now
  const clock = deps.clock as ManualClock;
  for (const [at, views] of [
    [now - 10 * DAY + 3 * 3_600_000, 4_000],
    [now - 10 * DAY + 12 * 3_600_000, 11_000],
    [now - 9 * DAY, 15_000],
    [now - 7 * DAY, 18_500],
  ] as const) {
    clock.set(at);
    await recordViews(deps, big.placement.id, views, "web");
  }
  clock.set(now);
  await updatePlacement(deps, user.id, big.placement.id, { views: 20_000 });

  const cheap = await make("Cheap ads", "@cheapads", { amount: 3000, currency: "RUB" }, now - 10 * DAY);
  const cheapInvite = await invite("cheapad");
  await bindInvite(deps, user.id, cheap.placement.id, cheapInvite.id);
  await clicks(cheap.link.id, 6, 0, now - 9 * DAY);
  await joins(cheapInvite.inviteLink, 2, now - 9 * DAY);

  const vk = await make("VK group", "VK group Cats", null, now - 60 * DAY);
  await clicks(vk.link.id, 3, 0, now - 59 * DAY);

  return {
    channel: channel!,
    big: big.placement,
    cheap: cheap.placement,
    vk: vk.placement,
    invites: { big: bigInvite, cheap: cheapInvite },
  };
}
