import { and, asc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Tables } from "../../db/async";
import { Conflict, FieldError, NotFound } from "../errors";

export type TagView = { id: number; name: string; createdAt: string };
const view = (r: Tables["tags"]["$inferSelect"]): TagView => ({ id: r.id, name: r.name, createdAt: r.createdAt.toISOString() });

/** The user's tags by name. */
export async function listTags(deps: Pick<Deps, "asyncDb">, userId: number): Promise<TagView[]> {
  const { tags } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(tags).where(eq(tags.userId, userId)).orderBy(asc(tags.name))).map(view);
}

/** Creates a tag; names are 1–50 characters and unique per user (case-insensitive, 409 otherwise). */
export async function createTag(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, name: string): Promise<TagView> {
  const clean = name.trim();
  if (!clean || clean.length > 50) throw new FieldError("name", "must be 1–50 characters");
  const taken = (await listTags(deps, userId)).some((t) => t.name.toLowerCase() === clean.toLowerCase());
  if (taken) throw new Conflict(`You already have a tag named "${clean}"`, "tag_exists");
  const { tags } = deps.asyncDb.tables;
  const [made] = await deps.asyncDb.insert(tags).values({ userId, name: clean, createdAt: deps.clock.now() }).returning();
  return view(made!);
}

/** Deletes a tag (links lose it); 404 for missing or someone else's. */
export async function deleteTag(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<void> {
  const { tags } = deps.asyncDb.tables;
  const gone = await deps.asyncDb
    .delete(tags)
    .where(and(eq(tags.id, id), eq(tags.userId, userId)))
    .returning({ id: tags.id });
  if (!gone.length) throw new NotFound("Tag");
}
