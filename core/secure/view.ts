/**
 * The public side of secure links: resolve a code, check its state, count views atomically and
 * describe what the viewer gets. No HTTP here; the API and the viewer page call these.
 */
import { eq } from "drizzle-orm";
import { first, type Tables } from "../../db/async";
import type { Deps } from "../deps";
import { type AppError, Forbidden, Gone, NotFound } from "../errors";
import { cleanFileName, hasContent, type FileRow } from "./files";
import { signGrant, verifyGrant } from "./grants";
import { shareLinkState, type ShareLinkState } from "./share-links";
import type { Viewer } from "./notify";
import { checkSharePassword, type AttemptLimiter } from "./share-password";
import { countView } from "./view-count";

type ShareLinkRow = Tables["secureLinks"]["$inferSelect"];

export interface Opened {
  link: ShareLinkRow;
  file: FileRow;
  /** true when this request counted a view */
  counted: boolean;
}

/** How a public request may open a link. */
export interface OpenMode {
  /** count a view when no valid grant is carried (false for HEAD, preview bots, the owner and the viewer page's first load) */
  consume: boolean;
  grant?: string | null;
  ip: string | null;
  /** the share password the visitor sent (checked whenever a view is counted) */
  password?: string | null;
  userAgent?: string | null;
}

/** What opening needs beside the database: the wrong-password limiter shared by the API and the viewer page. */
export interface OpenDeps extends Pick<Deps, "asyncDb" | "clock" | "config" | "geo"> {
  shareAttempts: AttemptLimiter;
}

async function load(deps: Pick<Deps, "asyncDb">, code: string) {
  const { secureFiles, secureFolders, secureLinks } = deps.asyncDb.tables;
  return first(
    await deps.asyncDb
      .select({ link: secureLinks, file: secureFiles, paused: secureFolders.isPaused })
      .from(secureLinks)
      .innerJoin(secureFiles, eq(secureFiles.id, secureLinks.fileId))
      .innerJoin(secureFolders, eq(secureFolders.id, secureFiles.folderId))
      .where(eq(secureLinks.code, code)),
  );
}

/** The public error for a link state other than active. */
function stateError(state: Exclude<ShareLinkState, "active">): AppError {
  switch (state) {
    case "revoked":
      return new Forbidden("This link has been revoked by its owner", "link_revoked");
    case "paused":
      return new Forbidden("Sharing from this folder is paused by its owner", "folder_paused");
    case "expired":
      return new Gone("This link has expired", "link_expired");
    case "exhausted":
      return new Gone("This link has reached its view limit", "views_exhausted");
  }
}

function unknownLink(): AppError {
  return new NotFound("Link");
}

/**
 * Opens a link by code: 404 unknown, 403 revoked or paused, 410 expired or used up (a valid grant
 * still streams after the views are used up). With a valid grant, or with `consume` false, nothing
 * is counted. Otherwise the share password is checked (401, or 429 after too many wrong ones; no
 * view is counted) and one conditional UPDATE counts the view only while the link is still active,
 * so with maxViews N exactly N concurrent openers succeed. A counted view of a link with
 * notifyOnView queues the owner's notice in the same transaction.
 */
export async function openLink(deps: OpenDeps, code: string, mode: OpenMode): Promise<Opened> {
  const row = await load(deps, code);
  if (!row || !hasContent(row.file)) throw unknownLink();
  const now = deps.clock.now();
  const state = shareLinkState(row.link, row.paused, now);
  // a grant holder already used one of the views: using them up afterwards does not cut them off
  const granted = verifyGrant(deps, mode.grant, row.link.id, mode.ip);
  if (state !== "active" && !(state === "exhausted" && granted)) throw stateError(state);
  if (!mode.consume || granted) return { link: row.link, file: row.file, counted: false };
  await checkSharePassword(deps, deps.shareAttempts, row.link, mode.password, mode.ip);

  const viewer: Viewer = { ip: mode.ip, userAgent: mode.userAgent ?? null };
  const counted = await countView(deps, row.link.id, now, row.file, viewer);
  if (counted) return { link: counted, file: row.file, counted: true };
  const again = await load(deps, code);
  if (!again) throw unknownLink();
  const now2 = shareLinkState(again.link, again.paused, now);
  throw stateError(now2 === "active" ? "exhausted" : now2);
}

export interface ViewJson {
  code: string;
  name: string;
  description: string;
  contentType: FileRow["contentType"];
  expiresAt: string;
  /** views left after this one; null when unlimited */
  viewsLeft: number | null;
  /** text content split into lines (contentType text) */
  lines?: string[];
  mimeType: string;
  fileName: string;
  fileSize: number;
  streamUrl: string;
  downloadUrl: string;
  /** true when the owner previewed (nothing counted) */
  preview: boolean;
}

/** The public view payload, with stream and download URLs that carry a fresh grant. */
export function viewPayload(deps: Pick<Deps, "config" | "clock">, opened: Opened, ip: string | null, preview = false): ViewJson {
  const { link, file } = opened;
  const grant = encodeURIComponent(signGrant(deps, link.id, ip));
  const base = `${deps.config.baseUrl}/api/secure/view/${link.code}`;
  const isText = file.contentType === "text";
  const json: ViewJson = {
    code: link.code,
    name: file.name,
    description: file.description ?? "",
    contentType: file.contentType,
    expiresAt: link.expiresAt.toISOString(),
    viewsLeft: link.maxViews === null ? null : Math.max(0, link.maxViews - link.viewCount),
    mimeType: isText ? "text/plain" : (file.mimeType ?? "application/octet-stream"),
    fileName: cleanFileName(isText ? `${file.name}.txt` : (file.fileName ?? file.name)),
    fileSize: file.fileSize ?? 0,
    streamUrl: `${base}/stream?grant=${grant}`,
    downloadUrl: `${base}/download?grant=${grant}`,
    preview,
  };
  if (isText) json.lines = (file.textContent ?? "").split(/\r?\n/);
  return json;
}

/** What the viewer page shows before anything is counted: no content, and no name or size behind a password. */
export interface RevealJson {
  code: string;
  contentType: FileRow["contentType"];
  name: string | null;
  fileName: string | null;
  fileSize: number | null;
  expiresAt: string;
  /** views left now; null when unlimited */
  viewsLeft: number | null;
  hasPassword: boolean;
}

/** The description of an opened (not counted) link for the reveal step. */
export function revealInfo(opened: Opened): RevealJson {
  const { link, file } = opened;
  const hidden = link.passwordHash !== null;
  const isText = file.contentType === "text";
  return {
    code: link.code,
    contentType: file.contentType,
    name: hidden ? null : file.name,
    fileName: hidden ? null : cleanFileName(isText ? `${file.name}.txt` : (file.fileName ?? file.name)),
    fileSize: hidden ? null : (file.fileSize ?? 0),
    expiresAt: link.expiresAt.toISOString(),
    viewsLeft: link.maxViews === null ? null : Math.max(0, link.maxViews - link.viewCount),
    hasPassword: hidden,
  };
}

/** The owner id of a link (for owner previews), or null when the code is unknown. */
export async function linkOwner(deps: Pick<Deps, "asyncDb">, code: string): Promise<number | null> {
  const { secureLinks } = deps.asyncDb.tables;
  return (
    first(await deps.asyncDb.select({ userId: secureLinks.userId }).from(secureLinks).where(eq(secureLinks.code, code)))?.userId ?? null
  );
}
