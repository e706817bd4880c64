import { and, asc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Tables } from "../../db/async";
import { invalidateLinkCache } from "../cluster/caches";
import { NotFound, ValidationError } from "../errors";

import { PIXEL_TYPES } from "../../db/tables/links";

export { PIXEL_TYPES };
export type PixelType = (typeof PIXEL_TYPES)[number];

/**
 * What each network's pixel id looks like (they end up inside the pixel page's scripts). Plain
 * patterns without flags, so the API document states them as they are checked.
 */
const PIXEL_ID: Record<PixelType, { pattern: string; hint: string }> = {
  facebook: { pattern: "^\\d{5,20}$", hint: "digits, e.g. 123456789012345" },
  google: { pattern: "^([Gg]|[Aa][Ww]|[Uu][Aa]|[Gg][Tt]|[Dd][Cc])-[A-Za-z0-9-]{4,20}$", hint: "e.g. G-ABC123XYZ or AW-123456789" },
  tiktok: { pattern: "^[A-Za-z0-9]{10,30}$", hint: "letters and digits, e.g. C4ABCDEF1234567890" },
  yandex: { pattern: "^\\d{4,12}$", hint: "the counter number, e.g. 12345678" },
  vk: { pattern: "^VK-RTRG-\\d{3,12}-[A-Za-z0-9]{3,12}$|^\\d{3,12}$", hint: "e.g. VK-RTRG-123456-AbCdE" },
};
const PIXEL_ID_RE = Object.fromEntries(PIXEL_TYPES.map((type) => [type, new RegExp(PIXEL_ID[type].pattern)])) as Record<PixelType, RegExp>;

/** A pixel id of any network, as one pattern (the API document's; core checks the one of the pixel's type). */
export const ANY_PIXEL_ID_PATTERN = PIXEL_TYPES.map((type) => `(?:${PIXEL_ID[type].pattern})`).join("|");

export type PixelView = { id: number; name: string; type: PixelType; pixelId: string; createdAt: string };
const view = (r: Tables["pixels"]["$inferSelect"]): PixelView => ({
  id: r.id,
  name: r.name,
  type: r.type,
  pixelId: r.pixelId,
  createdAt: r.createdAt.toISOString(),
});

/** The user's pixels in the order they were added. */
export async function listPixels(deps: Pick<Deps, "asyncDb">, userId: number): Promise<PixelView[]> {
  const { pixels } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(pixels).where(eq(pixels.userId, userId)).orderBy(asc(pixels.id))).map(view);
}

/** Creates a pixel of one of the supported networks after checking its id's shape. */
export async function createPixel(
  deps: Pick<Deps, "asyncDb" | "clock">,
  userId: number,
  input: { name: string; type: string; pixelId: string },
): Promise<PixelView> {
  const errors: { field: string; message: string }[] = [];
  const name = input.name.trim();
  const pixelId = input.pixelId.trim();
  if (!name || name.length > 100) errors.push({ field: "name", message: "must be 1–100 characters" });
  const type = input.type as PixelType;
  if (!PIXEL_TYPES.includes(type)) errors.push({ field: "type", message: `must be one of ${PIXEL_TYPES.join(", ")}` });
  else if (!PIXEL_ID_RE[type].test(pixelId))
    errors.push({ field: "pixelId", message: `is not a ${type} pixel id (${PIXEL_ID[type].hint})` });
  if (errors.length) throw new ValidationError(`Invalid pixel: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`, errors);
  const { pixels } = deps.asyncDb.tables;
  const [made] = await deps.asyncDb.insert(pixels).values({ userId, name, type, pixelId, createdAt: deps.clock.now() }).returning();
  return view(made!);
}

/** Deletes a pixel (it stops firing on every link); 404 for missing or someone else's. */
export async function deletePixel(
  deps: Pick<Deps, "asyncDb" | "linkCache" | "cluster" | "log">,
  userId: number,
  id: number,
): Promise<void> {
  const { pixels } = deps.asyncDb.tables;
  const gone = await deps.asyncDb
    .delete(pixels)
    .where(and(eq(pixels.id, id), eq(pixels.userId, userId)))
    .returning({ id: pixels.id });
  if (!gone.length) throw new NotFound("Pixel");
  invalidateLinkCache(deps);
}
