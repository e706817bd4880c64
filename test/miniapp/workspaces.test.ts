/**
 * Workspaces in the dashboard, in headless Chromium: the switcher (every request then carries
 * X-Workspace and the pages show that workspace's data), the members page (roles, invitation,
 * removal) and the audit page with its filters, in English and in Russian.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { openSignedIn, screenshot, until, withBrowserApp, type Server } from "../helpers/browser";
import { createLink } from "../../core/links/links";
import { getUser, setUserLanguage } from "../../core/accounts/users";
import { createInvite, createWorkspace, joinWorkspace } from "../../core/workspaces";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

/** Alice with a personal link, the team "Agency" with its own link, and Bob in it as a viewer. */
async function agency(aliceTg: number, bobTg: number) {
  const alice = await s.telegramUser(aliceTg, `alice${aliceTg}`);
  const bob = await s.telegramUser(bobTg, `bob${bobTg}`);
  await createLink(s.deps, alice.user, { url: "https://example.com/mine", title: "Mine" });
  const team = await createWorkspace(s.deps, alice.user.id, "Agency");
  await createLink(s.deps, await getUser(s.deps, team.id), { url: "https://example.com/ours", title: "Ours" });
  const { token } = await createInvite(s.deps, alice.user.id, team.id, "viewer");
  await joinWorkspace(s.deps, bob.user.id, token);
  return { alice, bob, team };
}

describe("workspaces in the dashboard", () => {
  test("the switcher sends X-Workspace and shows the chosen workspace's links; members: roles, invitation, removal", async () => {
    const { alice, bob, team } = await agency(5101, 5102);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, alice.token);
    const workspaces: (string | null)[] = [];
    page.on("request", (r) => r.url().includes("/api/links") && workspaces.push(r.headers()["x-workspace"] ?? null));
    await page.goto(`${s.baseUrl}/app/links`);
    await page.getByText("Mine", { exact: true }).waitFor();
    expect(await page.getByText("Ours", { exact: true }).count()).toBe(0);

    await page.getByRole("combobox", { name: "Workspace" }).selectOption({ label: "Agency · owner" });
    await page.getByText("Ours", { exact: true }).waitFor();
    expect(await page.getByText("Mine", { exact: true }).count()).toBe(0);
    expect(workspaces.at(-1)).toBe(String(team.id));

    await page.getByRole("link", { name: "Members", exact: true }).click();
    await page.getByTestId("members").waitFor();
    await until(async () => (await page.getByTestId("members").locator("li").allInnerTexts()).length, 2);
    const bobRow = page.getByTestId("members").locator("li", { hasText: `bob5102` });
    await bobRow.getByRole("combobox", { name: "Role" }).selectOption("editor");
    await until(
      async () =>
        (await s.request("GET", `/api/workspaces/${team.id}/members`, { token: alice.token, headers: {} })).json.find(
          (m: { id: number }) => m.id === bob.user.id,
        )?.role,
      "editor",
    );

    await page.getByRole("button", { name: "Make an invitation" }).click();
    const invitation = await page.getByTestId("invitation").innerText();
    expect(invitation).toMatch(/join/);
    expect(invitation).toContain("Valid until");
    await screenshot(page, "workspace-members");

    await bobRow.getByRole("button", { name: "Remove" }).click(); // the confirmation is accepted
    await until(async () => (await page.getByTestId("members").locator("li").allInnerTexts()).length, 1);
    const { workspaceMembers } = s.deps.asyncDb.tables;
    expect(await s.deps.asyncDb.select().from(workspaceMembers).where(eq(workspaceMembers.userId, bob.user.id))).toEqual([]);

    // back to the personal workspace: its own links again, and no X-Workspace
    await page.getByRole("combobox", { name: "Workspace" }).selectOption({ label: "Personal · owner" });
    await page.getByRole("link", { name: /Links/ }).first().click();
    await page.getByText("Mine", { exact: true }).waitFor();
    expect(workspaces.at(-1)).toBeNull();
    expect(problems).toEqual([]);
  });

  test("the audit page lists who changed what, filtered by action, member and dates; in Russian too", async () => {
    const { alice, team } = await agency(5201, 5202);
    await setUserLanguage(s.deps, alice.user.id, "ru");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, alice.token);
    await page.addInitScript((id: number) => localStorage.setItem("dash.workspace", String(id)), team.id);
    await page.goto(`${s.baseUrl}/app/team/audit`);
    const rows = () => page.getByTestId("audit").locator("tbody tr").allInnerTexts();
    await page.getByTestId("audit").waitFor();
    const all = await rows();
    expect(all.some((r) => r.includes("Приглашение · создание"))).toBe(true);
    expect(all.some((r) => r.includes("Участник · вступление"))).toBe(true);

    await page.getByRole("combobox", { name: "Что" }).selectOption({ label: "Участник" });
    await until(async () => (await rows()).every((r) => r.includes("Участник")), true);
    await page.getByRole("combobox", { name: "Кто" }).selectOption({ label: "alice5201" });
    await page.getByText("Подходящих изменений нет.").waitFor(); // Alice only invited; Bob joined
    await page.getByRole("combobox", { name: "Кто" }).selectOption({ index: 0 });
    await page.getByTestId("audit").waitFor();
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("С", { exact: true }).fill(tomorrow);
    await page.getByText("Подходящих изменений нет.").waitFor();
    await screenshot(page, "workspace-audit-ru");
    expect(problems).toEqual([]);
  });
});
