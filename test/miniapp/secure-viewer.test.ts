/** The public secure pages in real Chromium: the viewer's reveal step and password prompt, the request page. */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openPage, screenshot, withBrowserApp, type Server } from "../helpers/browser";
import sharp from "sharp";
import { link, seed, upload } from "../api/secure/helpers";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const viewCount = async (token: string, fileId: number) =>
  (await s.request("GET", `/api/secure/links?fileId=${fileId}`, { token })).json[0].viewCount as number;

describe("viewer page in Chromium", () => {
  test("loading the page counts nothing and shows what is shared; pressing the button counts one view and shows the image", async () => {
    const { token, folder } = await seed(s, 501);
    const png = await sharp({ create: { width: 3, height: 2, channels: 3, background: "#2a6df4" } })
      .png()
      .toBuffer();
    const record = (
      await s.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "pic", contentType: "image" } })
    ).json;
    const image = (await upload(s, token, record.id, new Uint8Array(png), "photo.png")).json;
    const l = await link(s, token, image.id, 1, 2);
    const { page, problems } = await openPage(browser, s.baseUrl);
    await page.goto(l.url);
    await page.getByRole("heading", { name: "A secure file was shared with you" }).waitFor();
    const facts = await page.locator("dl").innerText();
    for (const text of ["image", "pic", "photo.png", `${png.length} B`, "Views left", "2"]) expect(facts).toContain(text);
    await page.reload(); // a scanner or a second look: still nothing counted
    await page.getByRole("button", { name: "Show the file" }).waitFor();
    expect(await viewCount(token, image.id)).toBe(0);

    await page.getByRole("button", { name: "Show the file" }).click();
    await page.getByRole("heading", { name: "pic" }).waitFor();
    await page.waitForFunction(() => (document.querySelector("img") as HTMLImageElement | null)?.complete === true);
    // the image decoded from the granted stream URL
    expect(
      await page
        .locator("img")
        .evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight, img.src.includes("/stream?grant=")]),
    ).toEqual([3, 2, true]);
    expect(await page.getByText("1 view left").count()).toBe(1);
    expect(await viewCount(token, image.id)).toBe(1); // the image loaded with the grant: no second view
    await screenshot(page, "secure-viewer-revealed");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("a password link asks for it: a wrong one shows an error and counts nothing, the right one shows the text", async () => {
    const { token, text } = await seed(s, 502);
    const created = await s.request("POST", "/api/secure/links", {
      token,
      body: { fileId: text.id, expiresInHours: 1, maxViews: 3, password: "open sesame" },
    });
    expect(created.json.hasPassword).toBe(true);
    const { page, problems } = await openPage(browser, s.baseUrl);
    await page.goto(created.json.url);
    await page.getByLabel("Password").waitFor();
    expect(await page.locator("dl").innerText()).not.toContain("note"); // the name stays hidden until the password
    await page.getByLabel("Password").fill("wrong pass");
    await page.getByRole("button", { name: "Show the text" }).click();
    await page.getByRole("alert").filter({ hasText: "That password is wrong." }).waitFor();
    expect(await viewCount(token, text.id)).toBe(0);
    await page.getByLabel("Password").fill("open sesame");
    await page.getByRole("button", { name: "Show the text" }).click();
    await page.getByText("line <2>").waitFor();
    expect(await viewCount(token, text.id)).toBe(1);
    // the wrong password's answer is a 401 page, which Chromium reports; nothing else went wrong
    expect(problems.filter((p) => !p.startsWith("http 401") && !p.includes("status of 401"))).toEqual([]);
    await page.context().close();
  });

  test("the request page takes a file and a text from someone without an account; the owner has both, the file byte for byte", async () => {
    const { token, folder } = await seed(s, 503);
    const r = (
      await s.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id, title: "Send me your CV", maxFiles: 2 } })
    ).json;
    const { page, problems } = await openPage(browser, s.baseUrl);
    await page.goto(r.url);
    await page.getByRole("heading", { name: "Send me your CV" }).waitFor();
    await page.getByText("2 items can still be sent").waitFor();
    const bytes = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7) % 256));
    await page.getByLabel("File (at most 10 MB)").setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: bytes });
    await page.getByRole("button", { name: "Send the file" }).click();
    await page.getByRole("heading", { name: "Received" }).waitFor();
    await page.getByText("cv.pdf (39.1 KB) has been delivered.").waitFor();
    await page.getByRole("link", { name: "Send another" }).click();
    await page.getByLabel("Or a text").fill("Call me: +49 30 1234");
    await page.getByRole("button", { name: "Send the text" }).click();
    await page.getByText("Your text has been delivered.").waitFor();
    expect(await page.getByRole("link", { name: "Send another" }).count()).toBe(0); // that was the last item

    const files = (await s.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json;
    const cv = files.find((f: any) => f.fileName === "cv.pdf");
    const note = files.find((f: any) => f.textContent === "Call me: +49 30 1234");
    expect(cv.fileSize).toBe(bytes.length);
    expect(note.contentType).toBe("text");
    const l = await link(s, token, cv.id, 1, 1);
    const v = (await (await fetch(`${s.baseUrl}/api/secure/view/${l.code}`)).json()) as any;
    expect(Buffer.from(await (await fetch(v.downloadUrl)).arrayBuffer()).equals(bytes)).toBe(true);
    await page.goto(r.url); // full now
    await page.getByText("received all the items").waitFor();
    expect(problems.filter((p) => !p.includes("410"))).toEqual([]);
    await page.context().close();
  });
});
