import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { run } from "../../cli/source";
import { upsertSource } from "../../core/tracking/sources";

let t: TestApp;
let lines: string[];
beforeEach(async () => {
  t = createTestApp();
  lines = [];
  await upsertSource(
    t.deps,
    { chatId: "-1005550000001", type: "channel", title: "Moscow Tech", username: "msktech" },
    { memberCount: 321 },
  );
});
afterEach(() => t.close());
const cli = (...args: string[]) => run(t.deps, args, (l) => lines.push(l));

test("source set writes geo and category; list shows them; none clears", async () => {
  expect(await cli("set", "@MskTech", "--geo", "ru", "--category", "Tech")).toBe(0);
  expect(lines.pop()).toBe("Moscow Tech: geo=RU category=tech");
  expect(await cli("set", "https://t.me/msktech/10", "--geo", "none")).toBe(0);
  expect(lines.pop()).toBe("Moscow Tech: geo=- category=tech");
  expect(await cli("list")).toBe(0);
  expect(lines.pop()).toBe("-1005550000001\tchannel\t@msktech\tMoscow Tech\tmembers=321\tgeo=-\tcategory=tech\tactive");
});

test("bad input gets a clear error and exit code 1", async () => {
  expect(await cli("set", "-1005550000001", "--geo", "Narnia")).toBe(1);
  expect(lines.pop()).toBe('Error: geo: "Narnia" is not an ISO 3166-1 alpha-2 country code');
  expect(await cli("set", "@nobody_here", "--category", "tech")).toBe(1);
  expect(lines.pop()).toBe("Error: Source not found");
  expect(await cli("set", "@msktech", "--category", "gossip")).toBe(1);
  expect(lines.pop()).toBe('Error: category: "gossip" is not a known category');
  expect(await cli("set", "@msktech")).toBe(1);
  expect(lines.pop()).toContain("bun run cli source set <chat>");
  expect(await cli("set", "@msktech", "--colour", "red")).toBe(1);
  expect(lines.pop()).toContain("Unknown option '--colour'");
});
