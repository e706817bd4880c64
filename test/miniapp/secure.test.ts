import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openSignedIn, withBrowserApp, screenshot, until, type Server } from "../helpers/browser";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

/** The public view as a browser opens it (link-preview bots get no content). */
const publicView = (code: string) =>
  fetch(`${s.baseUrl}/api/secure/view/${code}`, {
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36" },
  });

describe("secure sharing in the dashboard", () => {
  test("folder, upload with a progress bar, share link that opens publicly, revoke and restore, pause, text note", async () => {
    const { token } = await s.emailUser("secure@example.com");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/secure`);
    await page.getByText("No folders yet.").waitFor();
    await page.getByLabel("Name").fill("Contracts");
    await page.getByLabel("Description").fill("Signed PDFs");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("heading", { name: "Contracts" }).waitFor();
    await page.getByText("No files yet.").waitFor();

    // upload 3 MB: the progress bar reaches 100 %, then the file page opens
    const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
    bytes.write("%PDF-1.4\n", 0);
    await page.getByLabel("Name").fill("Deal");
    await page.getByLabel("File (max 10 MB)").setInputFiles({ name: "deal.pdf", mimeType: "application/pdf", buffer: bytes });
    await page.evaluate(() => {
      const seen: number[] = ((window as any).__progress = []);
      new MutationObserver(() => {
        const bar = document.querySelector("[role=progressbar]");
        if (bar) seen.push(Number(bar.getAttribute("aria-valuenow")));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByRole("heading", { name: "Deal" }).waitFor();
    const progress: number[] = await page.evaluate(() => (window as any).__progress);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    await page.getByText("3.0 MB").waitFor();

    // a share link: shown with a copy button; the public view serves it
    await page.getByText("No links yet.").waitFor();
    await page.getByLabel("Expires in (hours)").fill("48");
    await page.getByLabel("Max views").fill("5");
    await page.getByRole("button", { name: "Create link" }).click();
    const url = (await page.getByTestId("new-secure-link").textContent())!;
    expect(url).toMatch(new RegExp(`^${s.baseUrl}/s/[A-Za-z0-9_-]+$`));
    const code = url.split("/s/")[1]!;
    const row = page.locator(`[data-code="${code}"]`);
    await row.getByText("active").waitFor();
    expect(await row.textContent()).toContain("0/5 views");
    const view = await publicView(code);
    expect(view.status).toBe(200);
    expect((await view.json()).fileName).toBe("deal.pdf");
    await screenshot(page, "secure-file");

    // revoke → public view 403; restore → 200 again
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByText("revoked").waitFor();
    expect((await publicView(code)).status).toBe(403);
    await row.getByRole("button", { name: "Restore" }).click();
    await row.getByText("active").waitFor();
    expect((await publicView(code)).status).toBe(200);

    // pausing the folder blocks its links; a text note is added
    await page.goBack();
    await page.getByRole("button", { name: "Pause folder" }).click();
    await page.getByText("Paused: every link in this folder").waitFor();
    expect((await publicView(code)).status).toBe(403);
    await page.getByRole("button", { name: "Resume folder" }).click();
    await page.getByRole("tab", { name: "Text note" }).click();
    await page.getByLabel("Name").fill("Wifi password");
    await page.getByLabel("Text").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Save note" }).click();
    await page.getByText("correct horse battery staple").waitFor();
    await page.goBack();
    await until(() => page.locator(".list > li").count(), 2);
    await screenshot(page, "secure-folder");
    await page
      .getByRole("navigation")
      .getByRole("link", { name: /Secure/ })
      .click();
    await page.getByText("Signed PDFs").waitFor();
    await screenshot(page, "secure-folders");
    expect(problems).toEqual([]);
  }, 60_000);
});
