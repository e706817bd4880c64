/**
 * Request links (files sent to you): SHORT_URL/r/<code> lets anyone without an account put files
 * or texts into one of the owner's folders, until the link expires, is turned off or has received
 * its maximum number of items. This file manages the links; request-items.ts receives the items.
 */
import { and, eq } from "drizzle-orm";
import { first, type Tables } from "../../db/async";
import type { Deps } from "../deps";
import { Gone, NotFound } from "../errors";
import { randomCode } from "../random";
import { ownedFolder } from "./folders";
import { expiryAfter } from "./share-links";
import { assertUnderCap } from "../accounts/caps";

export type RequestRow = Tables["secureRequests"]["$inferSelect"];

/** What the public page answers now: open, or why not (all 410). */
export type RequestState = "active" | "inactive" | "expired" | "full";

export interface RequestJson {
  id: number;
  code: string;
  /** SHORT_URL/r/<code> */
  url: string;
  folderId: number;
  title: string;
  /** null: never expires */
  expiresAt: string | null;
  /** null: no maximum */
  maxFiles: number | null;
  filesReceived: number;
  isActive: boolean;
  state: RequestState;
  createdAt: string;
}

/** Turned off wins over expired, expired over full. */
export function requestState(row: RequestRow, now: Date): RequestState {
  if (!row.isActive) return "inactive";
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return "expired";
  if (row.maxFiles !== null && row.filesReceived >= row.maxFiles) return "full";
  return "active";
}

/** The public error of a request link that takes nothing more. */
export function requestStateError(state: Exclude<RequestState, "active">): Gone {
  switch (state) {
    case "inactive":
      return new Gone("This request link has been turned off by its owner", "request_inactive");
    case "expired":
      return new Gone("This request link has expired", "request_expired");
    case "full":
      return new Gone("This request link has received all the items it asked for", "request_full");
  }
}

function toRequestJson(deps: Pick<Deps, "config" | "clock">, row: RequestRow): RequestJson {
  return {
    id: row.id,
    code: row.code,
    url: `${deps.config.shortUrl}/r/${row.code}`,
    folderId: row.folderId,
    title: row.title,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxFiles: row.maxFiles,
    filesReceived: row.filesReceived,
    isActive: row.isActive,
    state: requestState(row, deps.clock.now()),
    createdAt: row.createdAt.toISOString(),
  };
}

async function ownedRequest(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<RequestRow> {
  const { secureRequests } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select()
      .from(secureRequests)
      .where(and(eq(secureRequests.id, id), eq(secureRequests.userId, userId))),
  );
  if (!row) throw new NotFound("Request link");
  return row;
}

/** A request link by its public code; NotFound when unknown. */
export async function requestByCode(deps: Pick<Deps, "asyncDb">, code: string): Promise<RequestRow> {
  const { secureRequests } = deps.asyncDb.tables;
  const row = code.length <= 64 ? first(await deps.asyncDb.select().from(secureRequests).where(eq(secureRequests.code, code))) : undefined;
  if (!row) throw new NotFound("Request link");
  return row;
}

export interface CreateRequestInput {
  folderId: number;
  title?: string;
  /** absent: never expires */
  expiresInHours?: number;
  /** absent: no maximum */
  maxFiles?: number;
}

/** Creates a request link into one of the user's folders. */
export async function createRequest(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  input: CreateRequestInput,
): Promise<RequestJson> {
  await ownedFolder(deps, userId, input.folderId);
  await assertUnderCap(deps.asyncDb, "secureRequests", userId);
  const now = deps.clock.now();
  const expiresAt = input.expiresInHours === undefined ? null : expiryAfter(now, input.expiresInHours);
  const { secureRequests } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(secureRequests)
    .values({
      userId,
      folderId: input.folderId,
      code: randomCode(10),
      title: input.title?.trim() ?? "",
      expiresAt,
      maxFiles: input.maxFiles ?? null,
      createdAt: now,
    })
    .returning();
  return toRequestJson(deps, row!);
}

/** The user's request links, newest first. */
export async function listRequests(deps: Pick<Deps, "asyncDb" | "config" | "clock">, userId: number): Promise<RequestJson[]> {
  const { secureRequests } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(secureRequests).where(eq(secureRequests.userId, userId)).orderBy(secureRequests.id))
    .reverse()
    .map((r) => toRequestJson(deps, r));
}

/** One of the user's request links; NotFound for another user's or a missing one. */
export async function getRequest(deps: Pick<Deps, "asyncDb" | "config" | "clock">, userId: number, id: number): Promise<RequestJson> {
  return toRequestJson(deps, await ownedRequest(deps, userId, id));
}

/** Turns one of the user's request links on or off, or renames it. */
export async function updateRequest(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  id: number,
  input: { isActive?: boolean; title?: string },
): Promise<RequestJson> {
  await ownedRequest(deps, userId, id);
  const set: Partial<RequestRow> = {};
  if (input.isActive !== undefined) set.isActive = input.isActive;
  if (input.title !== undefined) set.title = input.title.trim();
  const { secureRequests } = deps.asyncDb.tables;
  const row = Object.keys(set).length
    ? first(await deps.asyncDb.update(secureRequests).set(set).where(eq(secureRequests.id, id)).returning())!
    : await ownedRequest(deps, userId, id);
  return toRequestJson(deps, row);
}

/** Deletes one of the user's request links (the items it brought stay in the folder). */
export async function deleteRequest(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<void> {
  await ownedRequest(deps, userId, id);
  const { secureRequests } = deps.asyncDb.tables;
  await deps.asyncDb.delete(secureRequests).where(eq(secureRequests.id, id));
}
