import { expect, test } from "bun:test";
import { briefError, createRepeatLog, createLogger } from "../../core/log";

test("a repeated condition is logged once per interval, the next line counting the repeats kept quiet", () => {
  const lines: string[] = [];
  let now = 0;
  const repeat = createRepeatLog(
    createLogger("info", (l) => lines.push(l.replace(/^\S+ /, ""))),
    10_000,
    () => now,
  );
  for (; now < 25_000; now += 100) repeat("warn", "db", "database unavailable");
  repeat("warn", "other", "something else");
  expect(lines).toEqual([
    "WARN database unavailable",
    "WARN database unavailable (99 more in the last 10 s)",
    "WARN database unavailable (99 more in the last 10 s)",
    "WARN something else",
  ]);
});

test("briefError names the driver's error under drizzle's wrapper, with its codes", () => {
  const driver = Object.assign(new Error("Failed to connect"), { code: "ERR_POSTGRES_CONNECTION_REFUSED" });
  expect(briefError(new Error("Failed query: select 1", { cause: driver }))).toBe("Failed to connect (ERR_POSTGRES_CONNECTION_REFUSED)");
});
