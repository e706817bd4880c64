/**
 * Workspaces in the bot, end to end against the fake Bot API: the switch in Settings (one
 * workspace's data never shows in another), the invitation (one use, a first contact greeted), a
 * viewer refused a change in words, and the Team screen's members and last changes.
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startBotApp } from "./helpers";
import { eventually } from "../helpers/eventually";
import type { RecordedCall } from "../helpers/fake-bot-api";
import { createTracker } from "../../core/tracking/trackers";

setDefaultTimeout(60_000);

const ALICE = { id: 42, first_name: "Alice", username: "alice" };
const BOB = { id: 43, first_name: "Bob", username: "bob" };
const CAROL = { id: 44, first_name: "Carol", username: "carol" };

let s: Awaited<ReturnType<typeof startBotApp>>;
beforeEach(async () => (s = await startBotApp()));
afterEach(() => s.stop());

const textOf = (c: RecordedCall) => String(c.params.text ?? "");
/** Where the answers to the last message or tap begin among the fake's calls. */
let since = 0;
/** A private message from `who`; what the bot answers is looked for from here on. */
function say(text: string, who: typeof ALICE) {
  since = s.fake.calls.length;
  s.fake.pushMessage(text, who);
}
/** A tap on the newest button labelled `label`; what the bot answers is looked for from here on. */
function tap(label: string, who: typeof ALICE) {
  since = s.fake.calls.length;
  s.fake.press(label, who);
}
/** The first message sent or edited into `chat`, since the last message or tap, whose text passes `pred`. */
const shown = (chat: number, pred: (text: string) => boolean, what = "a message") =>
  eventually(
    () =>
      s.fake.calls
        .slice(since)
        .find(
          (c) => (c.method === "sendMessage" || c.method === "editMessageText") && Number(c.params.chat_id) === chat && pred(textOf(c)),
        ),
    what,
  );
const labels = (c: RecordedCall) => ((c.params.reply_markup?.inline_keyboard ?? []) as { text: string }[][]).flat().map((b) => b.text);
/** Everything said to `chat` from the call `from` on. */
const saidSince = (from: number, chat: number) =>
  s.fake.calls
    .slice(from)
    .filter((c) => Number(c.params.chat_id) === chat)
    .map(textOf)
    .join("\n");

async function start(person: typeof ALICE) {
  say("/start", person);
  await shown(person.id, (t) => t.startsWith("👋 Welcome"), "the greeting");
}

/** Alice makes the team "Agency" from Settings and works in it. */
async function makeTeam() {
  say("/settings", ALICE);
  await shown(ALICE.id, (t) => t.includes("⚙️ Settings"), "Settings");
  tap("➕ New team", ALICE);
  await shown(ALICE.id, (t) => t.startsWith("Name the new team"), "the name question");
  say("Agency", ALICE);
  return shown(ALICE.id, (t) => t.includes("Team <b>Agency</b> is made"), "the new team");
}

/** Alice invites someone as `role` from the Team screen; the invitation's URL. */
async function invite(role: string): Promise<string> {
  say("/settings", ALICE);
  await shown(ALICE.id, (t) => t.includes("⚙️ Settings"), "Settings");
  tap("👥 Team", ALICE);
  await shown(ALICE.id, (t) => t.includes("👥 Agency"), "the Team screen");
  tap("➕ Invite", ALICE);
  await shown(ALICE.id, (t) => t.startsWith("Invite someone into <b>Agency</b>"), "the role question");
  const before = s.fake.calls.length;
  tap(`As ${role}`, ALICE);
  const made = await eventually(
    () => s.fake.calls.slice(before).find((c) => c.method === "sendMessage" && textOf(c).startsWith("🔗 An invitation")),
    "the invitation",
  );
  const url = /https:\/\/t\.me\/\S+/.exec(textOf(made))![0];
  // one tap shares it through Telegram's share sheet
  const share = (made.params.reply_markup.inline_keyboard as { text: string; url: string }[][]).flat()[0]!;
  expect(share.text).toBe("📤 Send the invitation");
  expect(new URL(share.url).searchParams.get("url")).toBe(url);
  return url;
}

const startPayload = (url: string) => new URL(url).searchParams.get("start")!;

test("Settings switches the workspace: each list shows only its own workspace's links", async () => {
  await start(ALICE);
  say("https://example.com/mine", ALICE);
  await shown(ALICE.id, (t) => t.startsWith("✅ Your tracking link"), "the personal link");
  const made = await makeTeam();
  expect(textOf(made)).toContain("🏢 Workspace: <b>Agency</b> · owner");
  say("/links", ALICE);
  const empty = await shown(ALICE.id, (t) => t.startsWith("🔗 <b>Your links</b>"), "the team's list");
  expect(labels(empty).join(" ")).not.toContain("example.com/mine");
  say("https://example.com/ours", ALICE);
  await shown(ALICE.id, (t) => t.startsWith("✅ Your tracking link"), "the team's link");
  say("/links", ALICE);
  const team = await shown(ALICE.id, (t) => t.startsWith("🔗 <b>Your links</b> (1)"), "the team's list with its link");
  expect(labels(team).join(" ")).toContain("example.com/ours");
  expect(labels(team).join(" ")).not.toContain("example.com/mine");

  say("/settings", ALICE);
  const settings = await shown(ALICE.id, (t) => t.includes("⚙️ Settings"), "Settings");
  // one button per workspace, the current one marked
  expect(labels(settings)).toEqual(expect.arrayContaining(["Personal", "• Agency •", "👥 Team", "➕ New team"]));
  tap("Personal", ALICE);
  const back = await shown(ALICE.id, (t) => t.startsWith("You now work in <b>Personal</b>"), "the switch");
  expect(textOf(back)).toContain("🏢 Workspace: <b>personal</b>");
  say("/links", ALICE);
  const mine = await shown(ALICE.id, (t) => t.startsWith("🔗 <b>Your links</b> (1)") && !t.includes("ours"), "the personal list");
  expect(labels(mine).join(" ")).toContain("example.com/mine");
  expect(labels(mine).join(" ")).not.toContain("example.com/ours");
});

test("an invitation joins once: a first contact is greeted, then joins; the second person is told it was used", async () => {
  await start(ALICE);
  await makeTeam();
  const url = await invite("an editor");
  expect(url).toMatch(/^https:\/\/t\.me\/\w+\?start=join_[\w-]+$/);

  // Bob has never written to the bot: the link greets him, then he is in the team and works in it
  const before = s.fake.calls.length;
  say(`/start ${startPayload(url)}`, BOB);
  const joined = await shown(BOB.id, (t) => t.startsWith("👋 You joined <b>Agency</b> as editor"), "the join");
  expect(saidSince(before, BOB.id)).toMatch(/^👋 Welcome, Bob!/);
  expect(textOf(joined)).toContain("🏢 Workspace: <b>Agency</b> · editor");

  say(`/start ${startPayload(url)}`, CAROL);
  await shown(CAROL.id, (t) => t.includes("This invitation was already used; ask for a new one"), "the refusal");

  // the Team screen lists Bob with his role, and the last changes say who joined
  say("/settings", ALICE);
  await shown(ALICE.id, (t) => t.includes("⚙️ Settings"), "Settings");
  tap("👥 Team", ALICE);
  const team = await shown(ALICE.id, (t) => t.includes("👥 Agency</b> · 2 members"), "the Team screen");
  expect(textOf(team)).toContain("• Bob — editor");
  expect(labels(team)).toContain("Bob · editor");
  tap("📜 Last changes", ALICE);
  const changes = await shown(ALICE.id, (t) => t.startsWith("<b>📜 Last changes</b>"), "the last changes");
  expect(textOf(changes)).toMatch(/Bob: joined member \d+/);
});

test("a viewer reads the team's links but is refused a change in words; an admin's role change takes effect at once", async () => {
  await start(ALICE);
  await makeTeam();
  say("https://example.com/ours", ALICE);
  await shown(ALICE.id, (t) => t.startsWith("✅ Your tracking link"), "the team's link");
  const url = await invite("a viewer");
  say(`/start ${startPayload(url)}`, BOB);
  await shown(BOB.id, (t) => t.startsWith("👋 You joined <b>Agency</b> as viewer"), "the join");

  say("/links", BOB);
  const list = await shown(BOB.id, (t) => t.startsWith("🔗 <b>Your links</b> (1)"), "the team's list");
  expect(labels(list).join(" ")).toContain("example.com/ours");
  expect(labels(list)).not.toContain("➕ New link");
  // the link's card: what a viewer may do (stats, chart, export, QR), none of what changes it
  tap(labels(list).find((b) => b.includes("example.com/ours"))!, BOB);
  const card = await shown(BOB.id, (t) => t.includes("example.com/ours") && !t.startsWith("🔗 <b>Your links"), "the card");
  expect(labels(card)).toEqual(["📋 Copy link", "↗️ Share", "📊 Stats", "📈 Chart", "📤 Export", "🔳 QR", "⬅️ My links"]);
  // the team's tracker: its list without "New tracker", its screen with its matches alone
  const team = (await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.links))[0]!.userId;
  await createTracker(s.t.deps, team, { name: "Bitcoin", keyword: "bitcoin" });
  say("/trackers", BOB);
  const trackers = await shown(BOB.id, (t) => t.startsWith("🔎 <b>Your keyword trackers</b>"), "the team's trackers");
  expect(labels(trackers)).not.toContain("➕ New tracker");
  tap(labels(trackers).find((b) => b.includes("Bitcoin"))!, BOB);
  const tracker = await shown(BOB.id, (t) => t.includes("Bitcoin") && !t.startsWith("🔎 <b>Your keyword"), "the tracker");
  expect(labels(tracker)).toEqual(["📰 Matches", "⬅️ Trackers"]);
  say("https://example.com/theirs", BOB);
  await shown(BOB.id, (t) => t.startsWith("⚠️ This needs the editor role in this workspace; you are a viewer"), "the refusal");
  say("/track", BOB);
  await eventually(
    () =>
      s.fake.calls.filter((c) => Number(c.params.chat_id) === BOB.id && textOf(c).startsWith("⚠️ This needs the editor role")).length === 2,
    "the dialog refused",
  );
  expect((await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.links)).map((l) => l.url)).toEqual(["https://example.com/ours"]);

  // Alice makes Bob an editor: his next paste makes a link in the team
  say("/settings", ALICE);
  await shown(ALICE.id, (t) => t.includes("⚙️ Settings"), "Settings");
  tap("👥 Team", ALICE);
  await shown(ALICE.id, (t) => t.includes("👥 Agency"), "the Team screen");
  tap("Bob · viewer", ALICE);
  await shown(ALICE.id, (t) => t.startsWith("<b>Bob</b> — viewer"), "Bob's screen");
  tap("Make an editor", ALICE);
  await shown(ALICE.id, (t) => t.startsWith("Bob is editor now."), "the change");
  say("https://example.com/theirs", BOB);
  await shown(BOB.id, (t) => t.startsWith("✅ Your tracking link"), "Bob's link");
  const { users } = s.t.deps.asyncDb.tables;
  const bob = (await s.t.deps.asyncDb.select().from(users).where(eq(users.msgrId, BOB.id)))[0]!.id;
  const links = await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.links);
  expect(new Set(links.map((l) => l.userId)).size).toBe(1); // both in the team
  // the team's last changes say who did what in the bot, and the role change
  say("/settings", ALICE);
  await shown(ALICE.id, (t) => t.includes("⚙️ Settings"), "Settings");
  tap("👥 Team", ALICE);
  await shown(ALICE.id, (t) => t.includes("👥 Agency"), "the Team screen");
  tap("📜 Last changes", ALICE);
  const changes = textOf(await shown(ALICE.id, (t) => t.startsWith("<b>📜 Last changes</b>"), "the last changes"));
  const theirs = links.find((l) => l.url === "https://example.com/theirs")!;
  expect(changes).toContain(`Bob: created link ${theirs.id}`);
  expect(changes).toContain(`Alice: changed the role of member ${bob}`);
});
