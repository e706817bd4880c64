/**
 * The redirect's link cache on its own: freshness by the service's clock, one read for visitors
 * asking at once, reads overtaken by an invalidation not kept, the size bound, and stale entries
 * served a little longer when a link cannot be read again.
 */
import { expect, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import { LINK_CACHE_TTL_MS, LinkCache, type CachedLink } from "../../../core/redirect/link-cache";

const entry = (code: string) => ({ link: { code }, pixels: [], host: null, targets: {}, routing: null }) as unknown as CachedLink;

test("an entry is fresh for LINK_CACHE_TTL_MS of the service's clock, then read again", async () => {
  const clock = new ManualClock();
  const cache = new LinkCache(clock);
  let reads = 0;
  const read = async (code: string) => (reads++, entry(code));
  expect(cache.get("a")).toBeUndefined();
  const loaded = await cache.load("a", read);
  expect(cache.get("a")).toBe(loaded!);
  clock.advance(LINK_CACHE_TTL_MS - 1);
  expect(cache.get("a")).toBe(loaded!);
  clock.advance(1);
  expect(cache.get("a")).toBeUndefined();
  await cache.load("a", read);
  expect(reads).toBe(2);
});

test("visitors of one uncached link at once share one read; an unknown link (null) is not kept", async () => {
  const cache = new LinkCache(new ManualClock());
  let reads = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const read = async (code: string) => {
    reads++;
    await gate;
    return code === "none" ? null : entry(code);
  };
  const all = [cache.load("a", read), cache.load("a", read), cache.load("a", read), cache.load("none", read)];
  release();
  const [x, y, z, none] = await Promise.all(all);
  expect(reads).toBe(2);
  expect(x).toBe(y!);
  expect(y).toBe(z!);
  expect(none).toBeNull();
  expect(cache.size).toBe(1);
});

test("a read overtaken by an invalidation answers its caller but is not kept; invalidate counts generations", async () => {
  const cache = new LinkCache(new ManualClock());
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const pending = cache.load("a", async (code) => (await gate, entry(code)));
  expect(cache.generation).toBe(0);
  cache.invalidate();
  expect(cache.generation).toBe(1);
  release();
  expect(await pending).not.toBeNull();
  expect(cache.get("a")).toBeUndefined();
  expect(cache.size).toBe(0);
});

test("past its size bound the cache starts over rather than growing", async () => {
  const cache = new LinkCache(new ManualClock(), 3);
  for (const code of ["a", "b", "c"]) await cache.load(code, async (c) => entry(c));
  expect(cache.size).toBe(3);
  await cache.load("d", async (c) => entry(c));
  expect(cache.size).toBe(1);
  expect(cache.get("d")).toBeDefined();
});

test("a stale entry is served for the retry interval and then read again; a link never cached has none", async () => {
  const clock = new ManualClock();
  const cache = new LinkCache(clock);
  const kept = await cache.load("a", async (c) => entry(c));
  clock.advance(LINK_CACHE_TTL_MS * 10);
  expect(cache.get("a")).toBeUndefined();
  expect(cache.stale("a", 1000)).toBe(kept!);
  expect(cache.get("a")).toBe(kept!);
  clock.advance(1000);
  expect(cache.get("a")).toBeUndefined();
  expect(cache.stale("b", 1000)).toBeUndefined();
});
