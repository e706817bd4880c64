import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp } from "../helpers/app";

test("max_clicks is exact under parallel visits on a real server", async () => {
  const t = createTestApp();
  const { token } = await t.telegramUser();
  const cap = 25;
  const link = (
    await t.request("POST", "/api/links", {
      token,
      body: { url: "https://target.example/", max_clicks: cap, expired_url: "https://target.example/over" },
    })
  ).json;
  const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const base = `http://127.0.0.1:${server.server!.port}`;
    const visitors = Array.from({ length: 200 }, (_, i) =>
      fetch(`${base}/${link.code}`, {
        redirect: "manual",
        headers: { "user-agent": `Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0.${i} Safari/537.36` },
      }),
    );
    const responses = await Promise.all(visitors);
    const targets = responses.map((r) => r.headers.get("location"));
    expect(responses.every((r) => r.status === 302)).toBe(true);
    expect(targets.filter((l) => l === "https://target.example/")).toHaveLength(cap);
    expect(targets.filter((l) => l === "https://target.example/over")).toHaveLength(200 - cap);
    await t.deps.clicks.flush();
    expect(
      await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.clicks).where(eq(t.deps.asyncDb.tables.clicks.linkId, link.id)),
    ).toHaveLength(cap);
    expect(
      (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.links).where(eq(t.deps.asyncDb.tables.links.id, link.id)))[0],
    ).toMatchObject({ capUsed: cap, totalClicks: cap });
    expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.clicks))[0]!.ip).toBe("127.0.0.1");
  } finally {
    await server.stop();
    t.close();
  }
});
