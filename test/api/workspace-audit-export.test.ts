/**
 * POST /api/workspaces/:id/audit/export: the audit log goes to the person's own Telegram chat as CSV
 * or XLSX, like click exports; any member may (a viewer too), a stranger gets 404, and the file's
 * rows are the log's entries, newest first, with the time in the person's zone.
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { startBotApp } from "../bot/helpers";
import { eventually } from "../helpers/eventually";

setDefaultTimeout(60_000); // the fake Bot API and, on PostgreSQL, a server

let s: Awaited<ReturnType<typeof startBotApp>>;
beforeEach(async () => {
  s = await startBotApp({});
});
afterEach(() => s.stop());

async function join(owner: string, ws: number, role: string, tg: number, name: string) {
  const invite = await s.t.request("POST", `/api/workspaces/${ws}/invites`, { token: owner, body: { role } });
  const person = await s.t.telegramUser(tg, name);
  expect((await s.t.request("POST", "/api/workspaces/join", { token: person.token, body: { token: invite.json.token } })).status).toBe(200);
  return person;
}

const documentsTo = (chat: number) => s.fake.calls.filter((c) => c.method === "sendDocument" && c.params.chat_id === chat);

test("a viewer exports the log as CSV (header, rows newest first) and XLSX; strangers and bad formats are refused", async () => {
  const ann = await s.t.telegramUser(1, "ann");
  const ws = (await s.t.request("POST", "/api/workspaces", { token: ann.token, body: { name: "Acme" } })).json.id as number;
  const headers = { "x-workspace": String(ws) };
  const bob = await join(ann.token, ws, "editor", 2, "bob");
  const vic = await join(ann.token, ws, "viewer", 3, "vic");
  await s.t.request("PATCH", "/api/settings", { token: vic.token, body: { time_zone: "Europe/Moscow" } });
  const link = (
    await s.t.request("POST", "/api/links", { token: bob.token, headers, body: { url: "https://team.example/", password: "hunter22" } })
  ).json;
  await s.t.request("DELETE", `/api/links/${link.id}`, { token: ann.token, headers });

  const res = await s.t.request("POST", `/api/workspaces/${ws}/audit/export`, {
    token: vic.token,
    body: { format: "csv", action: "links" },
  });
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ ok: true, rows: 2 });
  const doc = await eventually(() => documentsTo(3)[0], "the CSV in the viewer's chat");
  expect(doc.files.document!.name).toMatch(new RegExp(`^audit-${ws}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = new TextDecoder()
    .decode(doc.files.document!.bytes)
    .replace(/^\uFEFF/, "")
    .split("\r\n");
  expect(csv[0]).toBe("Time — Moscow (UTC+3),Who,Action,What,Details");
  expect(csv[1]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(:\\d{2})?,ann,links\\.delete,link ${link.id},$`));
  expect(csv[2]).toStartWith(`${csv[2]!.split(",")[0]},bob,links.create,link ${link.id},`);
  // the body is in the details, its password hidden
  expect(csv[2]).toContain('""password"":""***""');
  expect(csv[2]).not.toContain("hunter22");
  expect(csv.slice(3)).toEqual([""]);

  const xlsx = await s.t.request("POST", `/api/workspaces/${ws}/audit/export`, { token: bob.token, body: { format: "xlsx" } });
  expect(xlsx.json).toMatchObject({ ok: true, rows: 7 });
  const sheet = await eventually(() => documentsTo(2)[0], "the XLSX in the editor's chat");
  expect(sheet.files.document!.name).toEndWith(".xlsx");
  expect([...sheet.files.document!.bytes.slice(0, 2)]).toEqual([0x50, 0x4b]); // a zip, as every xlsx

  const eve = await s.t.telegramUser(9, "eve");
  expect((await s.t.request("POST", `/api/workspaces/${ws}/audit/export`, { token: eve.token, body: { format: "csv" } })).status).toBe(404);
  const bad = await s.t.request("POST", `/api/workspaces/${ws}/audit/export`, { token: ann.token, body: { format: "pdf" } });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.json)).toContain("format");
  expect(documentsTo(9)).toEqual([]);
});
