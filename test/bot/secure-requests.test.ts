import { afterEach, describe, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { upsertTelegramUser } from "../../core/accounts/users";
import { createFolder } from "../../core/secure/folders";
import { listRequests } from "../../core/secure/requests";

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;

/** Alice (the unit bot's user) with one folder, on the secure section's first screen. */
async function withFolder(name = "Invoices") {
  b = unitBot({ SHORT_URL: "https://s.example" });
  const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
  const folder = await createFolder(b.t.deps, user.id, { name });
  await b.send("/secure");
  return { user, folder };
}

describe("request links in the bot (unit)", () => {
  test("a folder's screen makes a request link into it; the link's screen shows its URL and what it received", async () => {
    const { user, folder } = await withFolder();
    await b.press(/Invoices/);
    await b.press("📥 New request link");
    const [made] = await listRequests(b.t.deps, user.id);
    // made in one tap, it is bounded by default: 20 items within a week
    expect(made).toMatchObject({ folderId: folder.id, title: "Invoices", isActive: true, maxFiles: 20 });
    expect(new Date(made!.expiresAt!).getTime() - b.t.clock.now().getTime()).toBe(7 * 86_400_000);
    expect(lastText()).toContain("📥 Request link created");
    expect(lastText()).toContain("up to 20 items within 7 days");
    expect(lastText()).toContain(`https://s.example/r/${made!.code}`);
    expect(lastText()).toContain("Received: 0");
    expect(lastText()).toContain("State: 🟢 open");

    // someone without an account sends a text through it: the screen, drawn again, counts it
    const sent = await b.t.request("POST", `/api/secure/requests/${made!.code}/upload`, { body: { text: "IBAN please" } });
    expect(sent.status).toBe(201);
    await b.press("⬅️ Request links");
    expect(lastText()).toContain("📥 <b>Request links</b>");
    await b.press(/Invoices \(1 of 20\)/);
    expect(lastText()).toContain("Received: 1");
  });

  test("turned off from the bot, the public upload answers 410; turned on again, it takes files", async () => {
    const { user } = await withFolder();
    await b.press(/Invoices/);
    await b.press("📥 New request link");
    const code = (await listRequests(b.t.deps, user.id))[0]!.code;
    await b.press("⏸ Turn off");
    expect(lastText()).toContain("⏸ Turned off");
    expect(lastText()).toContain("State: ⏸ turned off");
    const refused = await b.t.request("POST", `/api/secure/requests/${code}/upload`, { body: { text: "late" } });
    expect(refused.status).toBe(410);
    expect(refused.json.error).toBe("request_inactive");
    await b.press("▶️ Turn on");
    expect(lastText()).toContain("State: 🟢 open");
    expect((await b.t.request("POST", `/api/secure/requests/${code}/upload`, { body: { text: "now" } })).status).toBe(201);
  });

  test("delete asks first; “Keep it” keeps the link, “Yes, delete” removes it and the list says none", async () => {
    const { user } = await withFolder();
    await b.press(/Invoices/);
    await b.press("📥 New request link");
    await b.press("🗑 Delete");
    expect(lastText()).toMatch(/^Delete the request link https:\/\/s\.example\/r\/.+\? It stops taking files at once/);
    await b.press("Keep it");
    expect(await listRequests(b.t.deps, user.id)).toHaveLength(1);
    expect(lastText()).toContain("Received: 0");
    await b.press("🗑 Delete");
    await b.press("🗑 Yes, delete");
    expect(await listRequests(b.t.deps, user.id)).toHaveLength(0);
    expect(lastText()).toContain("🗑 Request link deleted.");
    expect(lastText()).toContain("none yet");
  });

  test("the list is reached from /secure in one tap and has a way back to the folders", async () => {
    await withFolder();
    await b.press("📥 Request links");
    expect(lastText()).toContain("none yet. Open a folder");
    await b.press("⬅️ Folders");
    expect(lastText()).toContain("🔐 <b>Secure sharing</b>");
  });

  test("a request link deleted elsewhere: its old screen's buttons say so instead of failing", async () => {
    const { user } = await withFolder();
    await b.press(/Invoices/);
    await b.press("📥 New request link");
    await b.t.deps.asyncDb.delete(b.t.deps.asyncDb.tables.secureRequests);
    expect(await listRequests(b.t.deps, user.id)).toHaveLength(0);
    const calls = await b.press("⏸ Turn off");
    expect(calls.map((c) => [c.method, c.params.text])).toEqual([
      ["answerCallbackQuery", "This screen had changed: here it is as it is now."],
      ["editMessageText", "⚠️ Request link not found\n\nWhat would you like to do?"],
    ]);
  });
});
