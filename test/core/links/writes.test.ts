/**
 * Link writes and the redirect's reads (core/links/links.ts, bulk.ts, codes.ts, visit.ts) on SQLite
 * and on a real PostgreSQL: what two nodes doing the same thing at once must not break.
 */
import { afterAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Deps } from "../../../core/deps";
import { createLink, deleteLink, editLink, getLink } from "../../../core/links/links";
import { bulkCreateLinks } from "../../../core/links/bulk";
import { createVisitHandler, type VisitOutcome } from "../../../core/redirect/visit";
import { LinkCache } from "../../../core/redirect/link-cache";
import type { AsyncDb } from "../../../db/async";
import { createTestApp, type TestApp } from "../../helpers/app";
import { onBothDatabases } from "../../helpers/async-engines";

const apps: TestApp[] = [];
afterAll(() => apps.forEach((a) => a.close()));

/** The service's dependencies with `db` as its database (the rest from a test app). */
function depsOver(db: AsyncDb, env: Record<string, string> = {}): Deps {
  const t = createTestApp({ env });
  apps.push(t);
  return { ...t.deps, asyncDb: db, linkCache: new LinkCache(t.deps.clock) } as Deps;
}

async function userIn(db: AsyncDb, name: string) {
  const [u] = await db.insert(db.tables.users).values({ username: name, createdAt: new Date() }).returning();
  return u!;
}

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

onBothDatabases((open) => {
  test("twenty creates at once at a plan limit of five make exactly five links; a custom code taken at once by two is one link and one 409", async () => {
    const { db } = await open();
    const deps = depsOver(db, { PLAN_LIMITS: '{"free":{"links":5}}' });
    const ann = await userIn(db, "ann");
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => createLink(deps, ann, { url: `https://example.com/${i}` })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(5);
    expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason.status)).toEqual(
      Array(15).fill(403),
    );
    expect(await db.select().from(db.tables.links).where(eq(db.tables.links.userId, ann.id))).toHaveLength(5);

    const bob = await userIn(db, "bob");
    const codes = await Promise.allSettled([
      createLink(deps, bob, { url: "https://a.example/", code: "spring-sale" }),
      createLink(deps, bob, { url: "https://b.example/", code: "spring-sale" }),
    ]);
    expect(codes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((codes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ status: 409, code: "code_taken" });
  });

  test("edit, relations and delete: the code stays the user's as a tombstone", async () => {
    const { db } = await open();
    const deps = depsOver(db);
    const ann = await userIn(db, "ann");
    const [tag] = await db.insert(db.tables.tags).values({ userId: ann.id, name: "spring" }).returning();
    const made = await createLink(deps, ann, {
      url: "https://example.com/x",
      tagIds: [tag!.id],
      rules: [{ if: { country: ["DE"] }, url: "https://example.de/" }],
    });
    const edited = await editLink(deps, ann.id, made.id, { url: "https://example.com/y", tagIds: [], max_clicks: 3 });
    expect(edited.original_url).toBe("https://example.com/y");
    expect(await db.select().from(db.tables.linkTags)).toEqual([]);
    expect((await getLink(deps, ann.id, made.id)).original_url).toBe("https://example.com/y");
    await deleteLink(deps, ann.id, made.id);
    await expect(getLink(deps, ann.id, made.id)).rejects.toMatchObject({ status: 404 });
    expect(await db.select().from(db.tables.linkTombstones)).toEqual([expect.objectContaining({ code: made.code, userId: ann.id })]);
    await expect(deleteLink(deps, ann.id, made.id)).rejects.toMatchObject({ status: 404 });
  });

  test("bulk creation skips duplicates and stops at the plan limit, all in one transaction", async () => {
    const { db } = await open();
    const deps = depsOver(db, { PLAN_LIMITS: '{"free":{"links":3}}' });
    const ann = await userIn(db, "ann");
    await createLink(deps, ann, { url: "https://example.com/have" });
    const res = await bulkCreateLinks(deps, ann, [
      "https://example.com/a",
      "https://EXAMPLE.com/have",
      "https://example.com/a",
      "not a url",
      "https://example.com/b",
      "https://example.com/c",
    ]);
    expect(res.results.map((r) => r.url)).toEqual(["https://example.com/a", "https://example.com/b"]);
    expect(res.failed.map((f) => f.error)).toEqual([
      "duplicate: you already have a link to this URL",
      "duplicate: the same URL appears earlier in this request",
      expect.stringContaining("invalid URL"),
      "plan limit reached: upgrade your plan to create more links",
    ]);
  });

  test("a cap of ten holds exactly with forty visits at once through two nodes' redirect handlers", async () => {
    const { db } = await open();
    const [a, b] = [depsOver(db), depsOver(db)];
    const ann = await userIn(db, "ann");
    const made = await createLink(a, ann, { url: "https://example.com/capped", max_clicks: 10 });
    const nodes = [createVisitHandler(a), createVisitHandler(b)];
    const visits = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        Promise.resolve(
          nodes[i % 2]!({ code: made.code, host: null, method: "GET", ip: `203.0.113.${i}`, userAgent: CHROME, referer: null }),
        ),
      ),
    );
    const kinds = visits.map((v: VisitOutcome) => v.kind);
    expect(kinds.filter((k) => k === "redirect")).toHaveLength(10);
    expect(kinds.filter((k) => k === "expired")).toHaveLength(30);
    expect((await db.select().from(db.tables.links).where(eq(db.tables.links.id, made.id)))[0]!.capUsed).toBe(10);
    // an unknown code is not found on either node (and is not cached)
    expect(await nodes[1]!({ code: "nosuch1", host: null, method: "GET", ip: null, userAgent: CHROME, referer: null })).toEqual({
      kind: "not_found",
    });
  });
});
