import { expect, test } from "bun:test";
import { startServices, stopServices, type Service } from "../lifecycle";
import { createLogger } from "../core/log";

function recorder() {
  const events: string[] = [];
  const logs: string[] = [];
  const service = (name: string, opts: { failStart?: boolean; failStop?: boolean } = {}): Service => ({
    name,
    async start() {
      if (opts.failStart) throw new Error(`${name} cannot start`);
      events.push(`start ${name}`);
    },
    stop() {
      events.push(`stop ${name}`);
      if (opts.failStop) throw new Error(`${name} is stuck`);
    },
  });
  return { events, logs, service, log: createLogger("debug", (l) => logs.push(l)) };
}

test("services start in order and stop in reverse; a failing stop does not keep the others running", async () => {
  const r = recorder();
  const list = [r.service("db"), r.service("jobs", { failStop: true }), r.service("http")];
  await startServices(list, r.log);
  await stopServices(list, r.log);
  expect(r.events).toEqual(["start db", "start jobs", "start http", "stop http", "stop jobs", "stop db"]);
  expect(r.logs.some((l) => l.includes("ERROR could not stop jobs cleanly") && l.includes("jobs is stuck"))).toBe(true);
});

test("when one service cannot start, the ones already started are stopped and the error is passed on", async () => {
  const r = recorder();
  const list = [r.service("db"), r.service("jobs"), r.service("bot", { failStart: true }), r.service("http")];
  await expect(startServices(list, r.log)).rejects.toThrow("bot cannot start");
  expect(r.events).toEqual(["start db", "start jobs", "stop jobs", "stop db"]);
});
