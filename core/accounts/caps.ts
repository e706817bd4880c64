import { count, eq } from "drizzle-orm";
import type { AsyncDbOrTx, Tables } from "../../db/async";
import { first } from "../../db/async";
import { Forbidden } from "../errors";

/**
 * How many of each kind of thing one account may hold, whatever its plan: not a price list but a
 * bound, so a stolen session or a script cannot fill the database (plan limits cover links,
 * trackers and secure files).
 */
export const ACCOUNT_CAPS = {
  secureFolders: { max: 500, what: "folders" },
  domains: { max: 20, what: "custom domains" },
  secureRequests: { max: 200, what: "request links" },
  secureLinks: { max: 5000, what: "share links" },
} as const;

type Capped = keyof typeof ACCOUNT_CAPS;

/** 403 `account_cap` when `userId` already holds the most of `kind` an account may. */
export async function assertUnderCap(db: AsyncDbOrTx, kind: Capped, userId: number): Promise<void> {
  const table = db.tables[kind] as Tables["secureFolders"];
  const n = Number(first(await db.select({ n: count() }).from(table).where(eq(table.userId, userId)))!.n);
  const { max, what } = ACCOUNT_CAPS[kind];
  if (n >= max) throw new Forbidden(`An account holds at most ${max} ${what}; delete some you no longer use first`, "account_cap");
}
