/**
 * A separate process standing for a cluster node, so a test can kill -9 it while it holds
 * something: `lease <url> <name>` takes a leader lease and keeps it; `claim <url> <iso time>` claims
 * every due outbox row at that time and never settles them. Prints one line when it holds.
 */
import { ManualClock } from "../../core/clock";
import { createPgLeaderLease } from "../../core/cluster/leader-pg";
import { claimDue } from "../../core/delivery/outbox";
import { createPgDb } from "../../db/postgres";
import { createAsyncPg } from "../../db/async-pg";
import * as schemaPg from "../../db/schema-pg";
import type { Tables } from "../../db/async";

const [mode, url, arg] = process.argv.slice(2);
if (mode === "lease") {
  const lease = createPgLeaderLease(url!, arg!, { intervalMs: 200 });
  await lease.start();
  console.log(lease.held() ? "leading" : "standing by");
} else if (mode === "claim") {
  const { db } = await createPgDb(url!, { max: 1 });
  const asyncDb = createAsyncPg<Tables>(db, schemaPg as unknown as Record<keyof Tables, unknown>);
  const rows = await claimDue({ asyncDb, clock: new ManualClock(arg!), config: { webhookTimeoutMs: 5000 } as never }, 100);
  console.log(`claimed ${rows.map((r) => r.deliveryId).join(",")}`);
} else {
  console.error("usage: cluster-node-child.ts lease <url> <name> | claim <url> <iso time>");
  process.exit(2);
}
setInterval(() => {}, 60_000);
