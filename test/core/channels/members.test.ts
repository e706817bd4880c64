/** The join journal (core/channels/members.ts) on SQLite and on a real PostgreSQL: one change counted once, also when two handlers race. */
import { expect, test } from "bun:test";
import type { Deps } from "../../../core/deps";
import { recordMemberChange, type MemberChange } from "../../../core/channels/members";
import { channelStats, inviteStats } from "../../../core/channels/stats";
import { ManualClock } from "../../../core/clock";
import { StandingCache } from "../../../core/channels/standing";
import { onBothDatabases } from "../../helpers/async-engines";

onBothDatabases((open) => {
  test("the same update handled at once by several handlers (a retry, other nodes) counts once; the leave goes to the latest join", async () => {
    const { db } = await open();
    const clock = new ManualClock("2026-03-20T00:00:00Z");
    // the owner runs the chat, as Telegram last said (the channel's figures are theirs only while they do)
    const chatStandings = new StandingCache(clock);
    chatStandings.remember("-100777", 700, { holds: true });
    const deps = { asyncDb: db, clock, chatStandings, telegram: null } as unknown as Deps;
    const [owner] = await db.insert(db.tables.users).values({ username: "owner", msgrId: 700 }).returning();
    const [channel] = await db
      .insert(db.tables.channels)
      .values({ userId: owner!.id, chatId: "-100777", type: "channel", title: "C" })
      .returning();
    const [invite] = await db
      .insert(db.tables.channelInvites)
      .values({ userId: owner!.id, channelId: channel!.id, chatId: "-100777", name: "Ad", inviteLink: "https://t.me/+ad" })
      .returning();
    const day = Date.parse("2026-03-01T00:00:00Z") / 1000;
    const change = (status: [string, string], date: number, link?: string): MemberChange => ({
      chatId: "-100777",
      member: { id: 5 },
      oldStatus: status[0],
      newStatus: status[1],
      date,
      inviteLink: link ?? null,
    });
    const join1 = change(["left", "member"], day, "https://t.me/+ad");
    expect((await Promise.all([1, 2, 3, 4].map(() => recordMemberChange(deps, join1)))).sort()).toEqual([
      "join",
      "repeat",
      "repeat",
      "repeat",
    ]);
    const leave1 = change(["member", "left"], day + 3600);
    expect((await Promise.all([1, 2].map(() => recordMemberChange(deps, leave1)))).sort()).toEqual(["leave", "repeat"]);
    // joins again 10 days later with no link and stays: the first stay stays 1 h long
    expect(await recordMemberChange(deps, change(["left", "member"], day + 10 * 86_400))).toBe("join");
    expect(await recordMemberChange(deps, change(["member", "member"], day + 11 * 86_400))).toBe("none");
    const stats = await channelStats(deps, owner!.id, channel!.id);
    expect(stats).toMatchObject({
      joins: 2,
      leaves: 1,
      net: 1,
      by_invite: [{ invite_id: invite!.id, joins: 1, leaves: 1, net: 0 }],
      unattributed: { joins: 1, leaves: 0 },
    });
    expect((await inviteStats(deps, owner!.id, invite!.id)).retention).toEqual({
      h24: { eligible: 1, stayed: 0, rate: 0 },
      d7: { eligible: 1, stayed: 0, rate: 0 },
      d30: { eligible: 0, stayed: 0, rate: null },
    });
  });
});
