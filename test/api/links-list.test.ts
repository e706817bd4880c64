import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import type { links } from "../../db/schema";

let t: TestApp;
let token: string;
let userId: number;
beforeEach(async () => {
  t = createTestApp();
  const u = await t.telegramUser();
  token = u.token;
  userId = u.user.id;
});
afterEach(() => t.close());

const list = (query = "", tok = token) => t.request("GET", `/api/links${query}`, { token: tok });
const ids = (res: { json: { id: number }[] }) => res.json.map((l) => l.id);

/** Inserts `n` links for `user` straight into the database (faster than the API, no plan limit); returns their ids oldest first. */
async function seed(n: number, user = userId, fields: (i: number) => Partial<typeof links.$inferInsert> = () => ({})): Promise<number[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    userId: user,
    code: `seed${user}x${i}`,
    url: `https://example.com/page/${i}`,
    ...fields(i),
  }));
  return (await t.deps.asyncDb.insert(t.deps.asyncDb.tables.links).values(rows).returning({ id: t.deps.asyncDb.tables.links.id })).map(
    (r) => r.id,
  );
}

describe("GET /api/links tags filter", () => {
  test("malformed tag ids are 400 naming the tags field, never the whole list", async () => {
    await seed(3);
    for (const bad of ["0", "abc", "1,,2", "-1", "1,-2", "1.5", "2,0", ",", "1,", "99999999999999999999"]) {
      const res = await list(`?tags=${encodeURIComponent(bad)}`);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expect(res.json).toMatchObject({
        error: "validation_error",
        details: [{ field: "tags", message: "must be up to 100 comma-separated tag ids (positive whole numbers), e.g. 1,2" }],
      });
    }
  });

  test("unknown tag ids and another user's tag ids are 400 on tags, as tagIds are on create", async () => {
    const mine = await t.request("POST", "/api/tags", { token, body: { name: "mine" } });
    const other = await t.telegramUser(777, "mallory");
    const theirs = await t.request("POST", "/api/tags", { token: other.token, body: { name: "theirs" } });
    const create = await t.request("POST", "/api/links", { token, body: { url: "https://example.com/a", tagIds: [theirs.json.id] } });
    expect(create.status).toBe(400);
    for (const q of [`${theirs.json.id}`, `${mine.json.id},${theirs.json.id}`, "4242"]) {
      const res = await list(`?tags=${q}`);
      expect(res.status).toBe(400);
      expect(res.json.details).toEqual([{ field: "tags", message: expect.stringContaining("unknown tag id") }]);
    }
    expect((await list(`?tags=${mine.json.id}`)).status).toBe(200);
  });

  test("an empty tags parameter means no filter", async () => {
    const all = await seed(2);
    expect(ids(await list("?tags="))).toEqual(all.reverse());
  });
});

describe("GET /api/links paging and search", () => {
  test("default page is the 100 newest, with X-Total-Count; limit and offset walk the rest in a stable order", async () => {
    const all = (await seed(130)).reverse(); // newest first
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.headers.get("x-total-count")).toBe("130");
    expect(ids(first)).toEqual(all.slice(0, 100));
    const pages: number[] = [];
    for (let offset = 0; offset < 130; offset += 40) {
      const page = await list(`?limit=40&offset=${offset}`);
      expect(page.headers.get("x-total-count")).toBe("130");
      pages.push(...ids(page));
    }
    expect(pages).toEqual(all);
    const past = await list("?limit=10&offset=500");
    expect(past.json).toEqual([]);
    expect(past.headers.get("x-total-count")).toBe("130");
    expect(ids(await list("?limit=1000"))).toEqual(all);
  });

  test("newest first also when links were created in the same instant", async () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const same = await seed(5, userId, () => ({ createdAt: at }));
    expect(ids(await list())).toEqual([...same].reverse());
  });

  test("bad limit, offset and q are 400 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["limit=abc", "limit"],
      ["limit=2.5", "limit"],
      ["limit=-3", "limit"],
      ["offset=-1", "offset"],
      ["offset=1.5", "offset"],
      ["offset=x", "offset"],
      ["offset=99999999999999999999", "offset"],
      [`q=${"a".repeat(201)}`, "q"],
    ];
    for (const [query, field] of cases) {
      const res = await list(`?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.json.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(res.json.details[0].message).not.toMatch(/Expected|\^/); // said in words, not as a schema
    }
  });

  test("q finds links by title, destination or code, ignoring case (also outside ASCII), with tags and paging", async () => {
    const tag = await t.request("POST", "/api/tags", { token, body: { name: "promo" } });
    const [a, b, c, d] = await seed(
      4,
      userId,
      (i) =>
        [
          { title: "Весенняя распродажа", url: "https://shop.example/spring" },
          { title: null, url: "https://blog.example/Spring-Notes" },
          { title: "Other", url: "https://x.example/", code: "SPRINGcode" },
          { title: "100% off_sale", url: "https://y.example/" },
        ][i]!,
    );
    await t.deps.asyncDb.insert(t.deps.asyncDb.tables.linkTags).values([
      { linkId: a!, tagId: tag.json.id },
      { linkId: c!, tagId: tag.json.id },
    ]);
    await seed(3, (await t.telegramUser(778, "carol")).user.id, () => ({ title: "spring of someone else" }));

    const spring = await list("?q=SPRING");
    expect(ids(spring)).toEqual([c!, b!, a!]);
    expect(spring.headers.get("x-total-count")).toBe("3");
    expect(ids(await list(`?q=${encodeURIComponent("ВЕСЕН")}`))).toEqual([a!]);
    expect(ids(await list(`?q=spring&tags=${tag.json.id}`))).toEqual([c!, a!]);
    const page = await list("?q=spring&limit=2&offset=1");
    expect(ids(page)).toEqual([b!, a!]);
    expect(page.headers.get("x-total-count")).toBe("3");
    // LIKE wildcards are plain characters
    expect(ids(await list(`?q=${encodeURIComponent("100%")}`))).toEqual([d!]);
    expect(ids(await list(`?q=${encodeURIComponent("f_s")}`))).toEqual([d!]);
    expect(ids(await list(`?q=${encodeURIComponent("%")}`))).toEqual([d!]);
    // blank q is no search
    expect((await list("?q=%20%20")).headers.get("x-total-count")).toBe("4");
  });

  test("the header and paging work over real HTTP too", async () => {
    const http = createTestApp({ listen: true });
    try {
      const u = await http.telegramUser();
      for (let i = 0; i < 3; i++) await http.request("POST", "/api/links", { token: u.token, body: { url: `https://example.com/${i}` } });
      const res = await http.request("GET", "/api/links?limit=2", { token: u.token });
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(2);
      expect(res.headers.get("x-total-count")).toBe("3");
    } finally {
      http.close();
    }
  });
});
