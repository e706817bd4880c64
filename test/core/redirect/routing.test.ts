import { expect, test } from "bun:test";
import { compileRouting, osFamily, primaryLanguage, variantSlot } from "../../../core/redirect/routing";
import { queryParams } from "../../../core/clicks/click-id";
import { loadConfig } from "../../../config";
import { createGeoLookup } from "../../../core/clicks/enrich";
import type { LinkRow } from "../../../db/schema";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "routing-")) });
const link = (extra: Partial<LinkRow>) =>
  ({
    id: 1,
    url: "https://x.example/",
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    rules: null,
    variants: null,
    ...extra,
  }) as LinkRow;

test("a link without rules and variants compiles to nothing, so its redirect skips routing", () => {
  expect(compileRouting(createGeoLookup(config), link({}))).toBeNull();
  expect(
    compileRouting(createGeoLookup(config), link({ rules: JSON.stringify([{ if: { language: ["de"] }, url: "https://de.example/" }]) })),
  ).not.toBeNull();
});

test("the primary language of Accept-Language", () => {
  expect(primaryLanguage("de-AT,de;q=0.9,en;q=0.5")).toBe("de");
  expect(primaryLanguage("zh-Hant-TW")).toBe("zh");
  expect(primaryLanguage(" FR ; q=1")).toBe("fr");
  expect(primaryLanguage("*")).toBeNull();
  expect(primaryLanguage("english")).toBeNull();
  expect(primaryLanguage("")).toBeNull();
  expect(primaryLanguage(null)).toBeNull();
});

test("query parameters: decoded as forms are, the first value of a name counts, broken escapes kept as written", () => {
  expect([...queryParams("a=1&a=2&b=%20x&c+d=e+f&flag&bad=%E0&&")]).toEqual([
    ["a", "1"],
    ["b", " x"],
    ["c d", "e f"],
    ["flag", ""],
    ["bad", "%E0"],
  ]);
  expect(queryParams("").size).toBe(0);
});

test("OS families and the variant slot", () => {
  expect(["iOS", "Android", "Windows", "Mac OS", "Ubuntu", "Fedora", "Chromium OS", null].map(osFamily)).toEqual([
    "iOS",
    "Android",
    "Windows",
    "macOS",
    "Linux",
    "Linux",
    null,
    null,
  ]);
  const slot = variantSlot(7, "203.0.113.9", "UA", 100);
  expect(slot).toBeGreaterThanOrEqual(0);
  expect(slot).toBeLessThan(100);
  expect(variantSlot(7, "203.0.113.9", "UA", 100)).toBe(slot); // stable: no state, same on every node
});
