import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { first } from "../../db/async";
import { FieldError, NotFound } from "../errors";

/** A postback key as its owner sees it in a list (the key itself only when made). */
export interface PostbackKeyView {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

const KEY_PREFIX = "pbk_";
const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");
export const MAX_KEY_NAME = 100;

type KeyRow = Deps["asyncDb"]["tables"]["postbackKeys"]["$inferSelect"];
const view = (r: KeyRow): PostbackKeyView => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  created_at: r.createdAt.toISOString(),
  revoked_at: r.revokedAt?.toISOString() ?? null,
});

/** Makes a key for the GET postback URL; the key is answered this once (only its hash is kept). */
export async function createPostbackKey(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  ownerId: number,
  name: string,
): Promise<PostbackKeyView & { key: string; url: string }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_KEY_NAME) throw new FieldError("name", `must be 1 to ${MAX_KEY_NAME} characters`);
  const key = KEY_PREFIX + randomBytes(24).toString("base64url");
  const { postbackKeys } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(postbackKeys)
    .values({ userId: ownerId, name: trimmed, keyHash: hashOf(key), prefix: key.slice(0, 10), createdAt: deps.clock.now() })
    .returning();
  return { ...view(row!), key, url: `${deps.config.baseUrl.replace(/\/+$/, "")}/c/${key}` };
}

/** The owner's postback keys, newest first, revoked ones too. */
export async function listPostbackKeys(deps: Pick<Deps, "asyncDb">, ownerId: number): Promise<PostbackKeyView[]> {
  const { postbackKeys } = deps.asyncDb.tables;
  const rows = await deps.asyncDb.select().from(postbackKeys).where(eq(postbackKeys.userId, ownerId)).orderBy(desc(postbackKeys.id));
  return rows.map(view);
}

/** Revokes one of the owner's keys: the GET postback URL with it is refused from now on (404 when not theirs). */
export async function revokePostbackKey(deps: Pick<Deps, "asyncDb" | "clock">, ownerId: number, id: number): Promise<PostbackKeyView> {
  const { postbackKeys } = deps.asyncDb.tables;
  const mine = and(eq(postbackKeys.id, id), eq(postbackKeys.userId, ownerId));
  await deps.asyncDb
    .update(postbackKeys)
    .set({ revokedAt: deps.clock.now() })
    .where(and(mine, isNull(postbackKeys.revokedAt)));
  const row = first(await deps.asyncDb.select().from(postbackKeys).where(mine));
  if (!row) throw new NotFound("Postback key");
  return view(row);
}

/** The owner of a live key, or null (unknown or revoked). */
export async function ownerOfPostbackKey(deps: Pick<Deps, "asyncDb">, key: string): Promise<number | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 100) return null;
  const { postbackKeys } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select({ userId: postbackKeys.userId })
      .from(postbackKeys)
      .where(and(eq(postbackKeys.keyHash, hashOf(key)), isNull(postbackKeys.revokedAt))),
  );
  return row?.userId ?? null;
}
