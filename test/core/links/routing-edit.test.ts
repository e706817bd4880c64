import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { createLink } from "../../../core/links/links";
import {
  addRule,
  addVariant,
  clearVariants,
  moveRule,
  moveVariant,
  removeRule,
  removeVariant,
  routingOf,
  setVariantWeight,
} from "../../../core/links/routing-edit";
import type { UserRow } from "../../../core/accounts/users";

let t: TestApp;
let user: UserRow;
let linkId: number;
beforeEach(async () => {
  t = createTestApp();
  user = (await t.telegramUser()).user;
  linkId = (await createLink(t.deps, user, { url: "https://main.example/" })).id;
});
afterEach(() => t.close());

const rule = (c: string) => ({ if: { country: [c] }, url: `https://${c.toLowerCase()}.example/` });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => ({ status: e.status, details: e.details }),
  );

test("rules: add at the end or at a place, list, move, remove; invalid rules are refused with their path", async () => {
  await addRule(t.deps, user.id, linkId, rule("DE"));
  await addRule(t.deps, user.id, linkId, rule("FR"));
  expect((await addRule(t.deps, user.id, linkId, rule("AT"), 0)).map((r) => r.if.country![0])).toEqual(["AT", "DE", "FR"]);
  expect((await moveRule(t.deps, user.id, linkId, 2, 0)).map((r) => r.if.country![0])).toEqual(["FR", "AT", "DE"]);
  expect((await removeRule(t.deps, user.id, linkId, 1)).map((r) => r.if.country![0])).toEqual(["FR", "DE"]);
  expect((await routingOf(t.deps, user.id, linkId)).rules).toEqual([rule("FR"), rule("DE")]);

  expect(await refusal(addRule(t.deps, user.id, linkId, { if: { country: ["Germany"] }, url: "https://x.example/" }))).toEqual({
    status: 400,
    details: [{ field: "rules[2].if.country[0]", message: 'must be a two-letter country code (ISO 3166-1 alpha-2), got "Germany"' }],
  });
  expect(await refusal(removeRule(t.deps, user.id, linkId, 5))).toEqual({
    status: 400,
    details: [{ field: "index", message: "no rule 5: the link has rules 0 to 1" }],
  });
  expect(await refusal(moveRule(t.deps, user.id, linkId, 0, 2))).toEqual({
    status: 400,
    details: [{ field: "to", message: "no rule 2: the link has rules 0 to 1" }],
  });
  for (let i = 2; i < 20; i++) await addRule(t.deps, user.id, linkId, rule("US"));
  expect(await refusal(addRule(t.deps, user.id, linkId, rule("US")))).toEqual({
    status: 400,
    details: [{ field: "rules", message: "must have at most 20 rules (got 21)" }],
  });
  for (let i = 19; i >= 0; i--) await removeRule(t.deps, user.id, linkId, i);
  expect((await routingOf(t.deps, user.id, linkId)).rules).toEqual([]);
  expect(await refusal(removeRule(t.deps, user.id, linkId, 0))).toEqual({
    status: 400,
    details: [{ field: "index", message: "the link has no rules" }],
  });
});

test("variants: the first one added makes the link's own URL variant 0; weights, order, removal, and the end of the split", async () => {
  expect(await addVariant(t.deps, user.id, linkId, { url: "https://b.example/", weight: 50 })).toEqual([
    { url: "https://main.example/", weight: 50 },
    { url: "https://b.example/", weight: 50 },
  ]);
  await addVariant(t.deps, user.id, linkId, { url: "https://c.example/", weight: 20 });
  expect((await setVariantWeight(t.deps, user.id, linkId, 0, 30)).map((v) => v.weight)).toEqual([30, 50, 20]);
  expect((await moveVariant(t.deps, user.id, linkId, 2, 0)).map((v) => v.url)).toEqual([
    "https://c.example/",
    "https://main.example/",
    "https://b.example/",
  ]);
  expect((await removeVariant(t.deps, user.id, linkId, 1)).map((v) => v.url)).toEqual(["https://c.example/", "https://b.example/"]);
  expect(await refusal(removeVariant(t.deps, user.id, linkId, 0))).toEqual({
    status: 400,
    details: [{ field: "index", message: "a split needs at least 2 variants; end the split instead" }],
  });
  expect(await refusal(setVariantWeight(t.deps, user.id, linkId, 1, 0))).toEqual({
    status: 400,
    details: [{ field: "variants[1].weight", message: "must be a whole number from 1 to 100" }],
  });
  expect(await refusal(addVariant(t.deps, user.id, linkId, { url: "javascript:alert(1)", weight: 10 }))).toEqual({
    status: 400,
    details: [{ field: "variants[2].url", message: "must be an http:// or https:// URL" }],
  });
  await clearVariants(t.deps, user.id, linkId);
  expect((await routingOf(t.deps, user.id, linkId)).variants).toEqual([]);
});

test("another user's link is not found", async () => {
  const other = (await t.telegramUser(7, "mallory")).user;
  expect(await refusal(addRule(t.deps, other.id, linkId, rule("DE")))).toMatchObject({ status: 404 });
  await expect(routingOf(t.deps, other.id, linkId)).rejects.toThrow("Link not found");
});
