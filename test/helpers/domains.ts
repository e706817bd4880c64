/**
 * A custom domain that is already verified, for tests whose subject is what a domain does, not how it
 * is verified (that is test/security/domains.test.ts, against a real DNS server): added through the
 * API, then marked verified as a TXT lookup would.
 */
import { eq } from "drizzle-orm";
import type { TestApp } from "./app";

export async function addVerifiedDomain(t: TestApp, token: string, hostname: string) {
  const res = await t.request("POST", "/api/domains", { token, body: { hostname } });
  if (res.status !== 201) throw new Error(`could not add ${hostname}: ${res.text}`);
  const { domains } = t.deps.asyncDb.tables;
  await t.deps.asyncDb.update(domains).set({ verifiedAt: t.clock.now() }).where(eq(domains.id, res.json.id));
  return (await t.request("GET", "/api/domains", { token })).json.find((d: { id: number }) => d.id === res.json.id) as {
    id: number;
    hostname: string;
    verified: boolean;
  };
}
