import { expect, test } from "bun:test";
import { appWithReceiver, deferCleanup, fieldRefusal, insertLink, outboxRows, recordClicks } from "../../helpers/webhook-fixtures";
import { validateWebhookTarget } from "../../../core/webhooks/validate";
import { forbiddenAddressReason } from "../../../core/webhooks/ssrf";
import { deliveryWorker } from "../../../app/delivery-routes";

const defer = deferCleanup();
const setup = () => appWithReceiver(defer, { WEBHOOK_ALLOW_PRIVATE: "false" });
const refusal = (p: Promise<unknown>) => fieldRefusal(p);

const CLASSES: [url: string, reason: string][] = [
  ["http://127.0.0.1:8080/hook", "127.0.0.1 is a loopback address"],
  ["http://127.1.2.3/", "127.1.2.3 is a loopback address"],
  ["http://[::1]/", "::1 is a loopback address"],
  ["http://10.1.2.3/", "10.1.2.3 is a private address"],
  ["http://172.20.0.1/", "172.20.0.1 is a private address"],
  ["https://192.168.0.10/", "192.168.0.10 is a private address"],
  ["http://169.254.10.20/", "169.254.10.20 is a link-local address"],
  ["http://[fe80::1]/", "fe80::1 is a link-local address"],
  ["http://100.64.0.7/", "100.64.0.7 is a shared (CGNAT) address"],
  ["http://224.0.0.251/", "224.0.0.251 is a multicast address"],
  ["http://[ff02::1]/", "ff02::1 is a multicast address"],
  ["http://0.0.0.0/", "0.0.0.0 is an unspecified address"],
  ["http://[::]/", ":: is an unspecified address"],
  ["http://255.255.255.255/", "255.255.255.255 is a broadcast address"],
  ["http://[fd12:3456::1]/", "fd12:3456::1 is a unique-local (private) address"],
  ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is a loopback address"],
  ["http://[::ffff:10.0.0.1]/", "::ffff:a00:1 is a private address"],
  ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"],
  ["http://[fd00:ec2::254]/", "fd00:ec2::254 is a cloud metadata address"],
  ["http://metadata.google.internal/computeMetadata/v1/", "metadata.google.internal is a cloud metadata host"],
  ["http://2130706433/", "127.0.0.1 is a loopback address"], // decimal form of 127.0.0.1
  ["http://[::ffff:0:7f00:1]/", "::ffff:0:7f00:1 is an IPv4-embedding address"], // IPv4-translated (SIIT) form of 127.0.0.1
];

for (const [url, reason] of CLASSES)
  test(`validation refuses ${url}`, async () => {
    const { t } = setup();
    expect(await refusal(validateWebhookTarget(t.deps, url))).toBe(`target refused: ${reason}; webhooks may not target internal networks`);
  });

test("a host name resolving to loopback (localhost) is refused and never contacted", async () => {
  const { t, rx } = setup();
  const port = new URL(rx.url).port;
  expect(await refusal(validateWebhookTarget(t.deps, `http://localhost:${port}/`))).toMatch(
    /^target refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/,
  );
  expect(await refusal(validateWebhookTarget(t.deps, rx.url))).toContain("127.0.0.1 is a loopback address");
  expect(rx.received).toHaveLength(0);
});

test("the address is checked again at delivery: a stored internal target gets nothing", async () => {
  const { t, rx } = setup();
  const { user } = await t.telegramUser();
  // saved while allowed (or before its DNS changed): delivery checks again
  const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/hook`, webhookEnabled: true });
  await recordClicks(t.deps, link);
  await deliveryWorker(t.deps).drain();
  expect(rx.received).toHaveLength(0);
  const [row] = await outboxRows(t.deps, "click_webhook");
  expect(row!.lastError).toBe("refused: 127.0.0.1 is a loopback address; webhooks may not target internal networks");
  expect(row!.attempts).toBe(2); // the first try and the immediate retry; later retries wait for their delay
});

test("public addresses pass the address rules", () => {
  for (const ip of ["93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
    expect(forbiddenAddressReason(ip)).toBeNull();
});
