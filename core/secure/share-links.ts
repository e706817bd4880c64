import { and, eq } from "drizzle-orm";
import { first, type Tables } from "../../db/async";
import type { Deps } from "../deps";
import { FieldError, NotFound } from "../errors";
import { randomCode } from "../random";
import { hasContent, ownedFile } from "./files";
import { assertUnderCap } from "../accounts/caps";

type ShareLinkRow = Tables["secureLinks"]["$inferSelect"];

/** What the public side would answer now: active, or why not (403 revoked/paused, 410 expired/exhausted). */
export type ShareLinkState = "active" | "revoked" | "paused" | "expired" | "exhausted";

export interface ShareLinkJson {
  id: number;
  fileId: number;
  code: string;
  url: string;
  expiresAt: string;
  maxViews: number | null;
  viewCount: number;
  isRevoked: boolean;
  /** the public state right now (includes the folder's pause) */
  state: ShareLinkState;
  /** opening needs the share password (X-Share-Password) */
  hasPassword: boolean;
  /** the owner gets a bot message for each counted view */
  notifyOnView: boolean;
  createdAt: string;
}

/** Revocation and pause answer 403 before expiry and exhaustion answer 410. */
export function shareLinkState(link: ShareLinkRow, folderPaused: boolean, now: Date): ShareLinkState {
  if (link.isRevoked) return "revoked";
  if (folderPaused) return "paused";
  if (link.expiresAt.getTime() <= now.getTime()) return "expired";
  if (link.maxViews !== null && link.viewCount >= link.maxViews) return "exhausted";
  return "active";
}

/** The public viewer URL of a link: SHORT_URL/s/<code>. */
function secureUrl(deps: Pick<Deps, "config">, code: string): string {
  return `${deps.config.shortUrl}/s/${code}`;
}

/** A link row as the API and the bot show it; `folderPaused` is its folder's pause. */
export function toShareLinkJson(deps: Pick<Deps, "config" | "clock">, row: ShareLinkRow, folderPaused: boolean): ShareLinkJson {
  return {
    id: row.id,
    fileId: row.fileId,
    code: row.code,
    url: secureUrl(deps, row.code),
    expiresAt: row.expiresAt.toISOString(),
    maxViews: row.maxViews,
    viewCount: row.viewCount,
    isRevoked: row.isRevoked,
    state: shareLinkState(row, folderPaused, deps.clock.now()),
    hasPassword: row.passwordHash !== null,
    notifyOnView: row.notifyOnView,
    createdAt: row.createdAt.toISOString(),
  };
}

async function folderPausedOf(deps: Pick<Deps, "asyncDb">, fileId: number): Promise<boolean> {
  const { secureFiles, secureFolders } = deps.asyncDb.tables;
  const r = first(
    await deps.asyncDb
      .select({ paused: secureFolders.isPaused })
      .from(secureFiles)
      .innerJoin(secureFolders, eq(secureFolders.id, secureFiles.folderId))
      .where(eq(secureFiles.id, fileId)),
  );
  return r?.paused ?? false;
}

async function ownedShareLink(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<ShareLinkRow> {
  const { secureLinks } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select()
      .from(secureLinks)
      .where(and(eq(secureLinks.id, id), eq(secureLinks.userId, userId))),
  );
  if (!row) throw new NotFound("Link");
  return row;
}

/** One of the user's links with its current public state; NotFound otherwise. */
export async function getShareLink(deps: Pick<Deps, "asyncDb" | "config" | "clock">, userId: number, id: number): Promise<ShareLinkJson> {
  const row = await ownedShareLink(deps, userId, id);
  return toShareLinkJson(deps, row, await folderPausedOf(deps, row.fileId));
}

/** Links of one of the user's files, oldest first. */
export async function listFileShareLinks(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  fileId: number,
): Promise<ShareLinkJson[]> {
  await ownedFile(deps, userId, fileId);
  const paused = await folderPausedOf(deps, fileId);
  const { secureLinks } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(secureLinks).where(eq(secureLinks.fileId, fileId)).orderBy(secureLinks.id)).map((r) =>
    toShareLinkJson(deps, r, paused),
  );
}

export interface CreateShareLinkInput {
  fileId: number;
  expiresInHours: number;
  /** null or absent: unlimited views */
  maxViews?: number | null;
  /** from `sharePasswordHash`; null or absent: no password */
  passwordHash?: string | null;
  notifyOnView?: boolean;
}

/** `now` plus `hours` (more than 0, at most 8784: one year); FieldError on `expiresInHours` otherwise. */
export function expiryAfter(now: Date, hours: number): Date {
  if (!(hours > 0) || hours > 24 * 366) throw new FieldError("expiresInHours", "must be more than 0 and at most 8784 (one year)");
  return new Date(now.getTime() + Math.round(hours * 3600_000));
}

/** Creates a share link to one of the user's files (which must have content). */
export async function createShareLink(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  input: CreateShareLinkInput,
): Promise<ShareLinkJson> {
  const file = await ownedFile(deps, userId, input.fileId);
  if (!hasContent(file)) throw new FieldError("fileId", "the file has no content yet; upload it first");
  await assertUnderCap(deps.asyncDb, "secureLinks", userId);
  const now = deps.clock.now();
  const { secureLinks } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(secureLinks)
    .values({
      userId,
      fileId: file.id,
      code: randomCode(10),
      expiresAt: expiryAfter(now, input.expiresInHours),
      maxViews: input.maxViews ?? null,
      passwordHash: input.passwordHash ?? null,
      notifyOnView: input.notifyOnView ?? false,
      createdAt: now,
    })
    .returning();
  return toShareLinkJson(deps, row!, await folderPausedOf(deps, file.id));
}

export interface UpdateShareLinkInput {
  /** a new hash from `sharePasswordHash`, null to remove the password, absent to keep it */
  passwordHash?: string | null;
  notifyOnView?: boolean;
}

/** Changes the password and the view notifications of one of the user's links. */
export async function updateShareLink(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  id: number,
  input: UpdateShareLinkInput,
): Promise<ShareLinkJson> {
  await ownedShareLink(deps, userId, id);
  const set: Partial<ShareLinkRow> = {};
  if (input.passwordHash !== undefined) set.passwordHash = input.passwordHash;
  if (input.notifyOnView !== undefined) set.notifyOnView = input.notifyOnView;
  const { secureLinks } = deps.asyncDb.tables;
  if (Object.keys(set).length) await deps.asyncDb.update(secureLinks).set(set).where(eq(secureLinks.id, id));
  return getShareLink(deps, userId, id);
}

/** Sets or clears revocation. Restore clears only the revocation: an expired or used-up link stays 410. */
export async function setShareLinkRevoked(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  id: number,
  revoked: boolean,
): Promise<ShareLinkJson> {
  await ownedShareLink(deps, userId, id);
  const { secureLinks } = deps.asyncDb.tables;
  await deps.asyncDb.update(secureLinks).set({ isRevoked: revoked }).where(eq(secureLinks.id, id));
  return getShareLink(deps, userId, id);
}

/** Deletes one of the user's links: its code answers 404 from then on. */
export async function deleteShareLink(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<void> {
  await ownedShareLink(deps, userId, id);
  const { secureLinks } = deps.asyncDb.tables;
  await deps.asyncDb.delete(secureLinks).where(eq(secureLinks.id, id));
}
