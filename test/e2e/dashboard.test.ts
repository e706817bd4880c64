/**
 * The dashboard in real headless Chromium: email-code sign-in with the code taken from a real SMTP
 * server, then a link created through the form shows up in the list. Phone-sized screenshots go to
 * test-artifacts/.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser } from "playwright-core";
import { eq } from "drizzle-orm";
import { links, users } from "../../db/schema";
import { SmtpSink } from "../helpers/smtp-sink";
import { launchChromium, openPage, screenshot, startServer, type Server } from "../helpers/browser";

// launches Chromium: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let sink: SmtpSink;
let server: Server;
let browser: Browser;
beforeAll(async () => {
  sink = await new SmtpSink().start();
  server = startServer({ env: { SMTP_URL: sink.url } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  await sink.stop();
});

test("sign in with an email code from SMTP, create a link, see it in the list; no console errors", async () => {
  const { page, problems } = await openPage(browser, server.baseUrl);
  await page.goto(`${server.baseUrl}/`);
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await screenshot(page, "dashboard-signin");

  await page.getByLabel("Email").fill("amy@example.com");
  await page.getByRole("button", { name: "Send code" }).click();
  const code = await sink.codeFor("amy@example.com");
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await page.getByRole("heading", { name: "Links" }).waitFor();
  expect(page.url()).toBe(`${server.baseUrl}/app/links`);
  await page.getByText("No links yet").waitFor();
  // the boot placeholder is gone once the app has rendered, and the list has finished loading
  expect(await page.locator(".boot").count()).toBe(0);
  expect(await page.getByText("Loading…").count()).toBe(0);

  await page.getByRole("link", { name: "New link" }).or(page.getByRole("button", { name: "New link" })).first().click();
  await page.getByLabel("Destination URL").fill("https://shop.example/spring");
  await page.getByLabel("Title").fill("Spring sale");
  await page.getByRole("button", { name: "Create link" }).click();
  await page.waitForURL(/\/app\/links\/\d+$/);

  await page.goto(`${server.baseUrl}/app/links`);
  await page.getByText("Spring sale").first().waitFor();
  await screenshot(page, "dashboard-links");
  // the link belongs to amy's account, created through the form
  const row = server.deps.db.select().from(links).get()!;
  const owner = server.deps.db.select().from(users).where(eq(users.id, row.userId)).get()!;
  expect({ url: row.url, title: row.title, email: owner.email }).toEqual({ url: "https://shop.example/spring", title: "Spring sale", email: "amy@example.com" });
  expect(problems).toEqual([]);
});
