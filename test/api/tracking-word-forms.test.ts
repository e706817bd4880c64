import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { ingestPost } from "../../core/tracking/ingest";
import { FORMS_DIFFER, FORMS_MATCH } from "../helpers/word-forms-cases";

// one app for the file: each case creates its tracker, posts, reads the matches and deletes it
let t: TestApp;
let token: string;
let messageId = 0;
beforeAll(async () => {
  t = createTestApp();
  ({ token } = await t.telegramUser());
});
afterAll(() => t.close());

const channel = { chatId: "-1001111111111", type: "channel" as const, title: "Deals", username: "deals" };

/** What a word-forms tracker on `keyword` records for a post carrying `words` (matched_keyword of each match). */
async function matchedBy(keyword: string, words: string): Promise<string[]> {
  const created = await t.request("POST", "/api/tracking", { token, body: { name: keyword, keyword, word_forms: true } });
  expect(created.status).toBe(201);
  expect(created.json.word_forms).toBe(true);
  await ingestPost(t.deps, { chat: channel, messageId: ++messageId, text: `Новости: ${words}. Подробнее ниже` });
  const matches = await t.request("GET", `/api/tracking/${created.json.id}/matches`, { token });
  expect((await t.request("DELETE", `/api/tracking/${created.json.id}`, { token })).status).toBe(200);
  return matches.json.items.map((m: { matched_keyword: string }) => m.matched_keyword);
}

describe("word_forms: true through the tracker API", () => {
  test.each(FORMS_MATCH)("%s records a match on %s", async (keyword, form) => {
    expect(await matchedBy(keyword, form)).toEqual([form]);
  });

  test.each(FORMS_DIFFER)("%s records nothing on %s", async (keyword, other) => {
    expect(await matchedBy(keyword, other)).toEqual([]);
  });
});
