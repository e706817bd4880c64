import { expect, test } from "bun:test";
import { appWithReceiver, deferCleanup, fieldRefusal } from "../../helpers/webhook-fixtures";
import { validateWebhookTarget } from "../../../core/webhooks/validate";
import { requestTarget, RESPONSE_CAP } from "../../../core/webhooks/http";

const defer = deferCleanup();
const setup = (env: Record<string, string> = {}) => appWithReceiver(defer, env);
const refusal = (p: Promise<unknown>) => fieldRefusal(p);

test("a target answering 200 or 201 is accepted; POST sends a validation event", async () => {
  const { t, rx } = setup();
  await validateWebhookTarget(t.deps, `${rx.url}/ok`, "POST");
  rx.respond = 201;
  await validateWebhookTarget(t.deps, `${rx.url}/created`);
  expect(rx.received.map((r) => [r.method, r.path])).toEqual([
    ["POST", "/ok"],
    ["POST", "/created"],
  ]);
  expect(JSON.parse(rx.received[0]!.body)).toEqual({ event: "validation", sent_at: t.clock.now().toISOString() });
  expect(rx.received[0]!.headers["x-webhook-event"]).toBe("validation");
});

test("GET validation sends the event as query parameters", async () => {
  const { t, rx } = setup();
  await validateWebhookTarget(t.deps, `${rx.url}/g?k=1`, "GET");
  expect(rx.received[0]!.method).toBe("GET");
  expect(rx.received[0]!.query).toEqual({ k: "1", event: "validation", sent_at: t.clock.now().toISOString() });
});

test("any other status is refused with the status seen; redirects are not followed", async () => {
  const { t, rx } = setup();
  rx.respond = 404;
  expect(await refusal(validateWebhookTarget(t.deps, rx.url))).toBe(
    "validation request failed: the target answered 404; it must answer 200 or 201",
  );
  rx.respond = 204;
  expect(await refusal(validateWebhookTarget(t.deps, rx.url))).toContain("answered 204");
  const redirecting = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.redirect(`${rx.url}/elsewhere`, 302) });
  defer(() => redirecting.stop(true));
  rx.received = [];
  expect(await refusal(validateWebhookTarget(t.deps, `http://127.0.0.1:${redirecting.port}/`))).toBe(
    "validation request failed: the target answered 302 (redirects are not followed); it must answer 200 or 201",
  );
  expect(rx.received).toHaveLength(0);
});

test("a target that does not answer in time is refused with the timeout", async () => {
  const { t, rx } = setup({ WEBHOOK_TIMEOUT_MS: "300" });
  rx.respond = async () => {
    await Bun.sleep(2000); // the target is slow; the validation gives up after 300 ms
    return 200;
  };
  const started = Date.now();
  expect(await refusal(validateWebhookTarget(t.deps, rx.url))).toBe("validation request failed: the target did not answer within 0.3 s");
  expect(Date.now() - started).toBeLessThan(1500);
});

test("an unreachable target and malformed URLs are refused with the reason", async () => {
  const { t } = setup();
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = closed.port;
  closed.stop(true);
  expect(await refusal(validateWebhookTarget(t.deps, `http://127.0.0.1:${port}/`))).toContain(
    "validation request failed: the target could not be reached",
  );
  expect(await refusal(validateWebhookTarget(t.deps, "ftp://example.com/x"))).toBe("must use http or https");
  expect(await refusal(validateWebhookTarget(t.deps, "https://user:pw@example.com/x"))).toBe("must not contain a user name or password");
  expect(await refusal(validateWebhookTarget(t.deps, "not a url"))).toBe("must be an absolute http(s) URL");
  expect(await refusal(validateWebhookTarget(t.deps, "http://no-such-host.invalid/"))).toContain("could not be resolved");
});

test("response bodies are read only up to the cap", async () => {
  const { t } = setup();
  const big = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("x".repeat(5_000_000)) });
  defer(() => big.stop(true));
  const res = await requestTarget(t.deps, { url: `http://127.0.0.1:${big.port}/`, method: "GET" });
  expect(res.status).toBe(200);
  expect(res.body.length).toBe(RESPONSE_CAP);
});
