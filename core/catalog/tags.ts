import { and, asc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { tags } from "../../db/schema";
import { changes } from "../../db/client";
import { Conflict, FieldError, NotFound } from "../errors";

export type TagView = { id: number; name: string; createdAt: string };
const view = (r: typeof tags.$inferSelect): TagView => ({ id: r.id, name: r.name, createdAt: r.createdAt.toISOString() });

/** The user's tags by name. */
export function listTags(deps: Pick<Deps, "db">, userId: number): TagView[] {
  return deps.db.select().from(tags).where(eq(tags.userId, userId)).orderBy(asc(tags.name)).all().map(view);
}

/** Creates a tag; names are 1–50 characters and unique per user (case-insensitive, 409 otherwise). */
export function createTag(deps: Pick<Deps, "db" | "clock">, userId: number, name: string): TagView {
  const clean = name.trim();
  if (!clean || clean.length > 50) throw new FieldError("name", "must be 1–50 characters");
  const taken = listTags(deps, userId).some((t) => t.name.toLowerCase() === clean.toLowerCase());
  if (taken) throw new Conflict(`You already have a tag named "${clean}"`, "tag_exists");
  return view(deps.db.insert(tags).values({ userId, name: clean, createdAt: deps.clock.now() }).returning().get());
}

/** Deletes a tag (links lose it); 404 for missing or someone else's. */
export function deleteTag(deps: Pick<Deps, "db">, userId: number, id: number): void {
  if (!changes(deps.db.delete(tags).where(and(eq(tags.id, id), eq(tags.userId, userId))).run())) throw new NotFound("Tag");
}
