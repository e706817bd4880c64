import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { signInitData, TEST_BOT_TOKEN } from "../helpers/telegram-login";
import { load } from "../helpers/visitors";

// a real listening server with the click writer thread under load
setDefaultTimeout(60_000);

let t: TestApp;
beforeEach(() => {
  t = createTestApp({ listen: true, env: { BOT_TOKEN: TEST_BOT_TOKEN } });
});
afterEach(async () => {
  await t.deps.clicks.stop();
  t.close();
});

test("API writes while the click writer thread commits batch after batch: every one succeeds, none answers 500 (database is locked)", async () => {
  const { token } = await t.telegramUser();
  const link = (await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/" } })).json as { code: string };
  // the writer on its own connection, handing over every 100 ms, as in the service
  await t.deps.clicks.start({ offThread: true });
  const origin = `http://127.0.0.1:${t.app.server!.port}`;
  const visitors = load(origin, link.code);
  try {
    const statuses: number[] = [];
    for (let round = 0; round < 40; round++) {
      const answers = await Promise.all([
        t.request("POST", "/api/links", { token, body: { url: `https://ok.example/${round}` } }),
        t.request("POST", "/api/auth/msgr", {
          body: { initData: signInitData({ id: 1000 + round, username: `u${round}` }, t.clock.now()) },
        }),
        t.request("POST", "/api/links", { token, body: { url: `https://other.example/${round}`, title: "second" } }),
      ]);
      for (const a of answers) {
        if (a.status >= 500) throw new Error(`${a.status}: ${a.text}`);
        statuses.push(a.status);
      }
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(80);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
  } finally {
    await visitors.stop();
  }
  expect(visitors.counts.answered).toBeGreaterThan(0);
  expect(t.logs.filter((l) => /locked|busy/i.test(l))).toEqual([]);
});
