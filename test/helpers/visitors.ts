/** Load from many visitors on a running service's short link, for the crash and shutdown tests. */
import { expect } from "bun:test";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
export const VISITORS = 24;

/**
 * Many visitors, each following the short link again as soon as it answers, until `stop()`.
 * `answered` counts the 302s received; `lost` the requests that got no answer (the service died).
 */
export function load(base: string, code: string) {
  let running = true;
  const counts = { answered: 0, lost: 0, other: 0 };
  const visitors = Array.from({ length: VISITORS }, async (_, v) => {
    for (let i = 0; running; i++) {
      try {
        const res = await fetch(`${base}/${code}`, {
          redirect: "manual",
          headers: { "user-agent": `${CHROME} v${v}`, "x-visit": String(i) },
        });
        await res.arrayBuffer();
        if (res.status === 302) counts.answered++;
        else counts.other++;
      } catch {
        counts.lost++;
        return; // the service is gone
      }
    }
  });
  return {
    counts,
    /** resolves once every visitor has its last answer (or error) */
    stop: async () => {
      running = false;
      await Promise.all(visitors);
    },
  };
}

export async function untilAnswered(counts: { answered: number }, n: number) {
  const deadline = Date.now() + 20_000;
  while (counts.answered < n && Date.now() < deadline) await Bun.sleep(10);
  expect(counts.answered).toBeGreaterThanOrEqual(n);
}
