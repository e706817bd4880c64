/**
 * Tags and pixels (core/catalog), one body on each database: a SQLite file and a real PostgreSQL,
 * both migrated as the service migrates them, through the async seam.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import { LinkCache } from "../../../core/redirect/link-cache";
import { createLocalCluster } from "../../../core/cluster";
import { createLogger } from "../../../core/log";
import { createTag, deleteTag, listTags } from "../../../core/catalog/tags";
import { createPixel, deletePixel, listPixels } from "../../../core/catalog/pixels";
import { createDomain, deleteDomain, listDomains } from "../../../core/catalog/domains";
import { AppError } from "../../../core/errors";
import { appEnginesForFile } from "../../helpers/async-engines";
import { loadConfig } from "../../../config";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const engines = appEnginesForFile();
const dataDir = mkdtempSync(join(tmpdir(), "linkbot-catalog-"));

/** What a caller at the edge sees of a failure: the status, machine code and details. */
async function failure(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof AppError)) throw new Error(`expected a domain error, got ${String(e)}`);
  return { status: e.status, code: e.code, details: e.details };
}

for (const [engine, open] of engines)
  describe(engine, () => {
    async function setup() {
      const { db } = await open();
      const clock = new ManualClock("2026-03-01T09:30:00.123Z");
      const config = loadConfig({ DATA_DIR: dataDir, SHORT_URL: "https://s.example", LOG_LEVEL: "error" });
      const deps = {
        asyncDb: db,
        clock,
        config,
        linkCache: new LinkCache(clock),
        cluster: createLocalCluster({ dataDir: "/nonexistent", clock }),
        log: createLogger("error"),
      };
      const user = async (username: string) => (await db.insert(db.tables.users).values({ username }).returning())[0]!.id;
      return { deps, clock, ada: await user("ada"), bob: await user("bob") };
    }

    test("tags: listed by name, trimmed, 1–50 characters, unique per user whatever the case, deleted by their owner only", async () => {
      const { deps, clock, ada, bob } = await setup();
      expect(await createTag(deps, ada, "  summer ")).toEqual({
        id: expect.any(Number),
        name: "summer",
        createdAt: "2026-03-01T09:30:00.123Z",
      });
      clock.advance(1000);
      const autumn = await createTag(deps, ada, "autumn");
      await createTag(deps, bob, "summer"); // another user's tag of the same name is fine
      expect((await listTags(deps, ada)).map((t) => t.name)).toEqual(["autumn", "summer"]);
      expect(autumn.createdAt).toBe("2026-03-01T09:30:01.123Z");

      expect(await failure(createTag(deps, ada, "SUMMER"))).toEqual({ status: 409, code: "tag_exists", details: undefined });
      expect(await failure(createTag(deps, ada, "   "))).toEqual({
        status: 400,
        code: "validation_error",
        details: [{ field: "name", message: "must be 1–50 characters" }],
      });
      expect((await failure(createTag(deps, ada, "x".repeat(51)))).status).toBe(400);

      expect(await failure(deleteTag(deps, bob, autumn.id))).toEqual({ status: 404, code: "not_found", details: undefined });
      await deleteTag(deps, ada, autumn.id);
      expect((await listTags(deps, ada)).map((t) => t.name)).toEqual(["summer"]);
      expect((await failure(deleteTag(deps, ada, autumn.id))).status).toBe(404);
      expect((await listTags(deps, bob)).map((t) => t.name)).toEqual(["summer"]);
    });

    test("pixels: each network's id shape checked, listed in the order added, deleting one clears the redirect's link cache", async () => {
      const { deps, ada, bob } = await setup();
      const shop = await createPixel(deps, ada, { name: " Shop ", type: "facebook", pixelId: "123456789012345" });
      expect(shop).toEqual({
        id: expect.any(Number),
        name: "Shop",
        type: "facebook",
        pixelId: "123456789012345",
        createdAt: "2026-03-01T09:30:00.123Z",
      });
      await createPixel(deps, ada, { name: "Ads", type: "google", pixelId: "G-ABC123XYZ" });
      await createPixel(deps, bob, { name: "Bob's", type: "vk", pixelId: "VK-RTRG-123456-AbCdE" });
      expect((await listPixels(deps, ada)).map((p) => `${p.type}:${p.name}`)).toEqual(["facebook:Shop", "google:Ads"]);

      expect(await failure(createPixel(deps, ada, { name: "", type: "facebook", pixelId: "12" }))).toEqual({
        status: 400,
        code: "validation_error",
        details: [
          { field: "name", message: "must be 1–100 characters" },
          { field: "pixelId", message: "is not a facebook pixel id (digits, e.g. 123456789012345)" },
        ],
      });
      expect((await failure(createPixel(deps, ada, { name: "X", type: "myspace", pixelId: "1" }))).details).toEqual([
        { field: "type", message: "must be one of facebook, google, tiktok, yandex, vk" },
      ]);

      const before = deps.linkCache.generation;
      expect((await failure(deletePixel(deps, bob, shop.id))).status).toBe(404);
      expect(deps.linkCache.generation).toBe(before);
      await deletePixel(deps, ada, shop.id);
      expect(deps.linkCache.generation).toBe(before + 1);
      expect((await listPixels(deps, ada)).map((p) => p.name)).toEqual(["Ads"]);
      expect(await listPixels(deps, bob)).toHaveLength(1);
    });

    test("domains: added unverified with their TXT challenge, listed by name, each once per account; IDNs in ASCII; deleted by their owner only", async () => {
      const { deps, ada, bob } = await setup();
      const go = await createDomain(deps, ada, " Go.Example.COM. ");
      expect(go).toEqual({
        id: expect.any(Number),
        hostname: "go.example.com",
        verified: false,
        verifiedAt: null,
        verification: {
          type: "TXT",
          name: "_linkbot-challenge.go.example.com",
          value: expect.stringMatching(/^linkbot-verify=[0-9a-f]{32}$/),
        },
        createdAt: "2026-03-01T09:30:00.123Z",
      });
      expect((await createDomain(deps, ada, "пример.рф")).hostname).toBe("xn--e1afmkfd.xn--p1ai");
      expect((await listDomains(deps, ada)).map((d) => d.hostname)).toEqual(["go.example.com", "xn--e1afmkfd.xn--p1ai"]);
      expect(await failure(createDomain(deps, ada, "go.example.com"))).toMatchObject({ status: 409, code: "domain_exists" });
      // two adds of the same name at once: one is added, the other is told it exists (the unique index decides)
      const both = await Promise.allSettled([createDomain(deps, ada, "twice.example.com"), createDomain(deps, ada, "twice.example.com")]);
      expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      // another account may claim the same name while nobody has verified it
      expect((await createDomain(deps, bob, "go.example.com")).verified).toBe(false);
      expect((await failure(createDomain(deps, ada, "https://x.example.com/path"))).details).toEqual([
        { field: "hostname", message: "must be a domain name such as go.example.com (no scheme, port or path)" },
      ]);
      expect((await failure(deleteDomain(deps, bob, go.id))).status).toBe(404);
      await deleteDomain(deps, ada, go.id);
      expect((await listDomains(deps, ada)).map((d) => d.hostname)).toEqual(["twice.example.com", "xn--e1afmkfd.xn--p1ai"]);
    });
  });
