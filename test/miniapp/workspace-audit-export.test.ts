/**
 * The audit page's "Send to the chat", in headless Chromium: it offers CSV and Excel, and the Excel
 * file that reaches the person's Telegram chat (the fake Bot API) is a workbook with the log's rows,
 * newest first, as the page lists them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import ExcelJS from "exceljs";
import type { Browser } from "playwright-core";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { openSignedIn, withBrowserApp, type Server } from "../helpers/browser";
import { createInvite, createWorkspace, joinWorkspace } from "../../core/workspaces";

let browser: Browser;
let s: Server;
const fake = new FakeBotApi();
beforeAll(() => fake.start()); // listening before the server reads its URL
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } }),
);
afterAll(() => fake.stop());

describe("the audit log from the mini-app, to the chat", () => {
  test("the page offers CSV and Excel; the Excel file in the chat holds the log's rows", async () => {
    const alice = await s.telegramUser(5301, "alice5301");
    const bob = await s.telegramUser(5302, "bob5302");
    const team = await createWorkspace(s.deps, alice.user.id, "Agency");
    const { token } = await createInvite(s.deps, alice.user.id, team.id, "editor");
    await joinWorkspace(s.deps, bob.user.id, token);

    const { page, problems } = await openSignedIn(browser, s.baseUrl, alice.token);
    await page.addInitScript((id: number) => localStorage.setItem("dash.workspace", String(id)), team.id);
    await page.goto(`${s.baseUrl}/app/team/audit`);
    await page.getByTestId("audit").waitFor();
    const shown = await page.getByTestId("audit").locator("tbody tr").allInnerTexts();
    expect(shown.length).toBeGreaterThanOrEqual(2);

    const format = page.getByLabel("Export format");
    expect(await format.locator("option").allInnerTexts()).toEqual(["CSV", "Excel"]);
    await format.selectOption("xlsx");
    await page.getByRole("button", { name: "Send to the chat" }).click();
    await page.getByText("Sent to your Telegram chat").waitFor();
    const doc = await fake.waitFor("sendDocument", (c) => String(c.params.chat_id) === "5301");
    const file = Object.values(doc.files)[0]!;
    expect(file.name).toMatch(new RegExp(`^audit-${team.id}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.bytes) as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const row = (n: number) => (sheet.getRow(n).values as unknown[]).slice(2, 5).map(String);
    expect(String(sheet.getRow(1).getCell(1).value)).toStartWith("Time");
    expect(row(1)).toEqual(["Who", "Action", "What"]);
    // every entry the page lists, newest first: Bob joined through the invitation Alice made
    expect(sheet.rowCount).toBe(shown.length + 1);
    expect(row(2)).toEqual(["bob5302", "members.join", `member ${bob.user.id}`]);
    expect(row(3).slice(0, 2)).toEqual(["alice5301", "invites.create"]);

    // CSV is still the other choice
    await format.selectOption("csv");
    await page.getByRole("button", { name: "Send to the chat" }).click();
    const csv = await fake.waitFor(
      "sendDocument",
      (c) => String(c.params.chat_id) === "5301" && Object.values(c.files)[0]!.name.endsWith(".csv"),
    );
    expect(new TextDecoder().decode(Object.values(csv.files)[0]!.bytes)).toContain("members.join");
    expect(problems).toEqual([]);
  });
});
