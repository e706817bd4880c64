import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { NotFound } from "../errors";
import type { Tables } from "../../db/async";

export type PlacementRow = Tables["placements"]["$inferSelect"];

/** The placement `id` if the account owns it; 404 otherwise. */
export async function ownedPlacement(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<PlacementRow> {
  const { placements } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(placements)
    .where(and(eq(placements.id, id), eq(placements.userId, userId)))
    .limit(1);
  if (!row) throw new NotFound("Placement");
  return row;
}
