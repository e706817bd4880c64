/**
 * The bot's writes and the audit log: every core function the bot changes a workspace's data with,
 * listed once with the API route that makes the same change. `write(ctx, fn, …)` calls the function
 * in the person's current workspace and records one entry under the person, with the action and
 * subject type the API's own entry for that route has (core/workspaces/audit-action.ts), so a change
 * reads the same in the log whether it was made in the bot, the mini-app or the API.
 */
import type { UserRow } from "../core/accounts/users";
import { createPixel, deletePixel } from "../core/catalog/pixels";
import { createTag, deleteTag } from "../core/catalog/tags";
import { createInvite, revokeInvite, updateInvite } from "../core/channels/invites";
import { approveAllRequests, settleRequest } from "../core/channels/requests";
import { createPostbackKey, revokePostbackKey } from "../core/conversions/keys";
import { createPostback, deletePostback } from "../core/conversions/postbacks";
import { createLink, deleteLink, editLink } from "../core/links/links";
import { createPlacement, deletePlacement, updatePlacement } from "../core/placements/placements";
import { createFile, createUploadedFile, deleteFile } from "../core/secure/files";
import { createFolder, deleteFolder, togglePause } from "../core/secure/folders";
import { createRequest, deleteRequest, updateRequest } from "../core/secure/requests";
import { createShareLink, deleteShareLink, setShareLinkRevoked, updateShareLink } from "../core/secure/share-links";
import { createApiToken, revokeApiToken } from "../core/tokens/api-tokens";
import { updateSettings } from "../core/reports/settings";
import { createTracker, deleteTracker, setTrackerEnabled, updateTracker } from "../core/tracking/trackers";
import { setLinkWebhookEnabled } from "../core/webhooks/link-webhook";
import { rotateSigningSecret } from "../core/webhooks/signing";
import { recordAudit } from "../core/workspaces";
import { auditAction } from "../core/workspaces/audit-action";
import type { BotContext } from "./context";

// biome-ignore lint/suspicious/noExplicitAny: the table holds core functions of every shape
type CoreWrite = (deps: any, owner: any, ...rest: any[]) => Promise<unknown>;
type Rest<F> = F extends (deps: never, owner: never, ...rest: infer R) => unknown ? R : never;

interface BotWrite {
  /** the API route making the same change (`METHOD /api/path`), or one per argument (revoke / restore) */
  route: string | ((rest: unknown[]) => string);
  /** the function takes the workspace's row, not its id */
  row?: true;
  /** the change is to the workspace's own settings (no id of their own): the entry's subject id is the workspace's */
  ofWorkspace?: true;
}

/** Every core function the bot writes a workspace's data with, and its API route. */
export const BOT_WRITES = new Map<CoreWrite, BotWrite>([
  [createLink, { route: "POST /api/links", row: true }],
  [editLink, { route: "PATCH /api/links/:id" }],
  [setLinkWebhookEnabled, { route: "PATCH /api/links/:id" }],
  [deleteLink, { route: "DELETE /api/links/:id" }],
  [createTag, { route: "POST /api/tags" }],
  [deleteTag, { route: "DELETE /api/tags/:id" }],
  [createPixel, { route: "POST /api/pixels" }],
  [deletePixel, { route: "DELETE /api/pixels/:id" }],
  [createApiToken, { route: "POST /api/tokens" }],
  [revokeApiToken, { route: "DELETE /api/tokens/:id" }],
  [rotateSigningSecret, { route: "POST /api/webhooks/secret/rotate" }],
  [createFolder, { route: "POST /api/secure/folders" }],
  [togglePause, { route: "PATCH /api/secure/folders/:id/pause" }],
  [deleteFolder, { route: "DELETE /api/secure/folders/:id" }],
  [createFile, { route: "POST /api/secure/files" }],
  [createUploadedFile, { route: "POST /api/secure/files" }],
  [deleteFile, { route: "DELETE /api/secure/files/:id" }],
  [createShareLink, { route: "POST /api/secure/links" }],
  [updateShareLink, { route: "PATCH /api/secure/links/:id" }],
  [setShareLinkRevoked, { route: (rest) => (rest[1] ? "PATCH /api/secure/links/:id/revoke" : "PATCH /api/secure/links/:id/restore") }],
  [deleteShareLink, { route: "DELETE /api/secure/links/:id" }],
  [createRequest, { route: "POST /api/secure/requests" }],
  [updateRequest, { route: "PATCH /api/secure/requests/:id" }],
  [deleteRequest, { route: "DELETE /api/secure/requests/:id" }],
  [createTracker, { route: "POST /api/tracking" }],
  [updateTracker, { route: "PATCH /api/tracking/:id" }],
  [setTrackerEnabled, { route: "PATCH /api/tracking/:id" }],
  [deleteTracker, { route: "DELETE /api/tracking/:id" }],
  [createInvite, { route: "POST /api/channels/:id/invites" }],
  [updateInvite, { route: "PATCH /api/invites/:id" }],
  [revokeInvite, { route: "DELETE /api/invites/:id" }],
  [settleRequest, { route: (rest) => `POST /api/requests/:id/${rest[1]}` }],
  [approveAllRequests, { route: "POST /api/channels/:id/requests/approve-all" }],
  [createPlacement, { route: "POST /api/placements", row: true }],
  [updatePlacement, { route: "PATCH /api/placements/:id" }],
  [deletePlacement, { route: "DELETE /api/placements/:id" }],
  [createPostback, { route: "POST /api/postbacks" }],
  [deletePostback, { route: "DELETE /api/postbacks/:id" }],
  [createPostbackKey, { route: "POST /api/postback-keys" }],
  [revokePostbackKey, { route: "DELETE /api/postback-keys/:id" }],
  // the reports' schedule and time zone, set on Settings → Reports for the workspace the person works in
  [updateSettings, { route: "PATCH /api/settings", ofWorkspace: true }],
]);

/** What a write's entry says about it: the id it acted on and what it was given (secrets are redacted when stored). */
function entryOf(route: string, rest: unknown[], result: unknown) {
  const [method, path] = route.split(" ") as [string, string];
  const { action, type } = auditAction(method, path);
  const fromPath = path.includes(":id") ? rest.find((a) => typeof a === "number") : undefined;
  const made = result as { id?: unknown } | null;
  const id = fromPath ?? (made && typeof made === "object" && typeof made.id === "number" ? made.id : null);
  const input = rest.find((a) => a !== null && typeof a === "object" && !Array.isArray(a) && !(a instanceof Uint8Array));
  const flag = rest.find((a) => typeof a === "boolean");
  const details = input ? { input } : flag === undefined ? null : { input: { value: flag } };
  return { action, subject: { type, id: id as number | null }, details: details as Record<string, unknown> | null };
}

/** Who writes where: an update's context (the person in their current workspace), or a team group's press. */
type Writer = Pick<BotContext, "deps"> & { owner: UserRow; user: { id: number } };

/**
 * Calls a core write in the person's current workspace and records it in the workspace's audit log
 * under the person: one entry per change, named as the API names the same change.
 */
export async function write<F extends CoreWrite>(ctx: Writer, fn: F, ...rest: Rest<F>): Promise<Awaited<ReturnType<F>>> {
  const known = BOT_WRITES.get(fn);
  if (!known) throw new Error(`bot write without an audit route: ${fn.name}`);
  const owner: UserRow | number = known.row ? ctx.owner : ctx.owner.id;
  const result = (await fn(ctx.deps, owner, ...rest)) as Awaited<ReturnType<F>>;
  const route = typeof known.route === "string" ? known.route : known.route(rest);
  const entry = entryOf(route, rest, result);
  if (known.ofWorkspace) entry.subject.id = ctx.owner.id;
  await recordAudit(ctx.deps, { workspaceId: ctx.owner.id, actorId: ctx.user.id, ...entry });
  return result;
}
