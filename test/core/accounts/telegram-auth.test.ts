import { afterEach, expect, spyOn, test } from "bun:test";
import * as crypto from "node:crypto";
import { verifyInitData, verifyLoginWidget } from "../../../core/accounts/telegram-auth";
import { ManualClock } from "../../../core/clock";
import { signInitData, signWidget, TEST_BOT_TOKEN, unixSeconds } from "../../helpers/telegram-login";

const clock = new ManualClock();
const deps = { config: { botToken: TEST_BOT_TOKEN }, clock } as unknown as Parameters<typeof verifyInitData>[0];
const alice = { id: 1001, username: "alice" };
let spy: ReturnType<typeof spyOn<typeof crypto, "timingSafeEqual">> | undefined;
afterEach(() => spy?.mockRestore());

test("the initData hash is compared in constant time, for good and for forged data", () => {
  spy = spyOn(crypto, "timingSafeEqual");
  const good = signInitData(alice, clock.now());
  expect(verifyInitData(deps, good).id).toBe(1001);
  const forged = good.replace(/hash=[0-9a-f]{64}/, `hash=${"0".repeat(64)}`);
  expect(forged).not.toBe(good);
  expect(() => verifyInitData(deps, forged)).toThrow("Invalid Telegram initData");
  expect(spy).toHaveBeenCalledTimes(2);
});

test("the Login Widget hash is compared in constant time", () => {
  spy = spyOn(crypto, "timingSafeEqual");
  const data = signWidget({ id: 5, first_name: "W", auth_date: unixSeconds(clock.now()) });
  expect(verifyLoginWidget(deps, data as never).id).toBe(5);
  expect(spy).toHaveBeenCalledTimes(1);
});
