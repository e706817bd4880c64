/**
 * Visitors following a short link, each visit with a Referer of its own, so every answered redirect
 * can be traced to its stored click; and the check that every one was stored exactly once.
 */
import { expect } from "bun:test";
import { eventually } from "./eventually";
import type { PgServer } from "./postgres";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/**
 * `visitors` visitors on each base URL, each following `/<code>` at most once per `paceMs` (a bounded
 * load) until `stop()`. `answered` holds the Referers of the 302s; `other` counts every other
 * status (and 0 for a request that got no answer).
 */
export function tracedVisits(bases: { name: string; url: string }[], code: string, visitors: number, paceMs: number) {
  let running = true;
  const answered: string[] = [];
  const other = new Map<number, number>();
  let visit = 0;
  const loops = bases.flatMap((b) =>
    Array.from({ length: visitors }, async () => {
      while (running) {
        const referer = `https://ref.example/${b.name}/${++visit}`;
        const res = await fetch(`${b.url}/${code}`, { redirect: "manual", headers: { "user-agent": CHROME, referer } }).catch(() => null);
        await res?.arrayBuffer();
        if (res?.status === 302) answered.push(referer);
        else other.set(res?.status ?? 0, (other.get(res?.status ?? 0) ?? 0) + 1);
        await Bun.sleep(paceMs);
      }
    }),
  );
  return { answered, other, stop: async () => ((running = false), await Promise.all(loops)) };
}

/** The clicks stored for `linkId` by Referer, read as the superuser. */
async function storedByReferer(pg: PgServer, linkId: number): Promise<Map<string, number>> {
  const db = new URL(pg.url).pathname.slice(1);
  const rows = (await pg.admin(`select referer || ' ' || count(*) from clicks where link_id = ${linkId} group by referer`, db))
    .trim()
    .split("\n")
    .filter(Boolean);
  return new Map(rows.map((r) => [r.slice(0, r.lastIndexOf(" ")), Number(r.slice(r.lastIndexOf(" ") + 1))]));
}

/**
 * Waits (up to `ms`) until every answered visit of `answered` is stored, then asserts that each is
 * stored exactly once and nothing else was, and that the link's counter agrees. Returns the figures.
 */
export async function expectEveryVisitStoredOnce(
  pg: PgServer,
  linkId: number,
  answered: string[],
  ms = 60_000,
): Promise<{ answered: number; stored: number; lost: number; doubled: number }> {
  const db = new URL(pg.url).pathname.slice(1);
  const count = async () => Number(await pg.admin(`select count(*) from clicks where link_id = ${linkId}`, db));
  // the detailed check below says what is missing when this runs out
  await eventually(async () => (await count()) >= answered.length, "every answered visit stored", ms).catch(() => {});
  const counts = await storedByReferer(pg, linkId);
  const lost = answered.filter((r) => !counts.has(r)).length;
  const doubled = [...counts].filter(([, c]) => c !== 1).length;
  const stored = await count();
  expect({ lost, doubled, stored }).toEqual({ lost: 0, doubled: 0, stored: answered.length });
  expect(Number(await pg.admin(`select total_clicks from links where id = ${linkId}`, db))).toBe(answered.length);
  return { answered: answered.length, stored, lost, doubled };
}
