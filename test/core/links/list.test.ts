/**
 * Link lists and details (core/links/list.ts, views.ts) on the async seam, one body on SQLite and on
 * a real PostgreSQL: newest first, pages by limit and offset (also an offset alone), totals, search,
 * custom-domain hosts and the tag and pixel relations.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../config";
import { pageOfLinks } from "../../../core/links/list";
import { linkDetails } from "../../../core/links/views";
import type { Deps } from "../../../core/deps";
import { appEnginesForFile } from "../../helpers/async-engines";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const engines = appEnginesForFile();
const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "linkbot-list-")), SHORT_URL: "https://s.example", LOG_LEVEL: "error" });

for (const [engine, open] of engines)
  describe(engine, () => {
    async function setup() {
      const { db } = await open();
      const deps = { asyncDb: db, config } as unknown as Deps;
      const [ada] = await db.insert(db.tables.users).values({ username: "ada" }).returning();
      const [bob] = await db.insert(db.tables.users).values({ username: "bob" }).returning();
      const [domain] = await db
        .insert(db.tables.domains)
        .values({ userId: ada!.id, hostname: "go.brand.example", verifiedAt: new Date(), createdAt: new Date() })
        .returning();
      const at = new Date("2026-03-01T09:30:00Z");
      const link = async (userId: number, code: string, url: string, extra: Record<string, unknown> = {}) =>
        (
          await db
            .insert(db.tables.links)
            .values({ userId, code, url, createdAt: at, updatedAt: at, ...extra })
            .returning()
        )[0]!;
      const made = [];
      for (let i = 1; i <= 7; i++)
        made.push(
          await link(ada!.id, `ada${i}`, `https://example.com/${i}`, i === 3 ? { title: "Spring SALE", domainId: domain!.id } : {}),
        );
      await link(bob!.id, "bob1", "https://example.com/bob");
      return { db, deps, ada: ada!.id, made };
    }

    test("newest first, paged by limit and offset (an offset alone too), with the total; another user's links never", async () => {
      const { deps, ada } = await setup();
      const codes = async (q: Parameters<typeof pageOfLinks>[2]) => {
        const page = await pageOfLinks(deps, ada, q);
        return { total: page.total, codes: page.items.map((l) => l.code) };
      };
      expect(await codes({})).toEqual({ total: 7, codes: ["ada7", "ada6", "ada5", "ada4", "ada3", "ada2", "ada1"] });
      expect(await codes({ limit: 3, offset: 0 })).toEqual({ total: 7, codes: ["ada7", "ada6", "ada5"] });
      expect(await codes({ limit: 3, offset: 6 })).toEqual({ total: 7, codes: ["ada1"] });
      expect(await codes({ offset: 5 })).toEqual({ total: 7, codes: ["ada2", "ada1"] });
      // search folds case over title, URL and code
      expect(await codes({ q: "spring sale" })).toEqual({ total: 1, codes: ["ada3"] });
      expect(await codes({ q: "EXAMPLE.COM/5" })).toEqual({ total: 1, codes: ["ada5"] });
    });

    test("a link on a verified custom domain is listed under that host; details carry its tags and pixels in order", async () => {
      const { db, deps, ada, made } = await setup();
      const page = await pageOfLinks(deps, ada, { q: "spring" });
      expect(page.items[0]!.trackingUrl).toBe("https://go.brand.example/ada3");
      const tags = await db
        .insert(db.tables.tags)
        .values([
          { userId: ada, name: "b", createdAt: new Date() },
          { userId: ada, name: "a", createdAt: new Date() },
        ])
        .returning();
      const [pixel] = await db
        .insert(db.tables.pixels)
        .values({ userId: ada, name: "Shop", type: "facebook", pixelId: "123", createdAt: new Date() })
        .returning();
      await db.insert(db.tables.linkTags).values([
        { linkId: made[2]!.id, tagId: tags[1]!.id },
        { linkId: made[2]!.id, tagId: tags[0]!.id },
      ]);
      await db.insert(db.tables.linkPixels).values({ linkId: made[2]!.id, pixelId: pixel!.id });
      const d = await linkDetails(deps, made[2]!);
      expect(d).toMatchObject({
        code: "ada3",
        trackingUrl: "https://go.brand.example/ada3",
        title: "Spring SALE",
        tagIds: [tags[0]!.id, tags[1]!.id],
        pixelIds: [pixel!.id],
      });
      expect((await pageOfLinks(deps, ada, { q: "spring" })).items[0]!.tagIds).toEqual([tags[0]!.id, tags[1]!.id]);
    });
  });
