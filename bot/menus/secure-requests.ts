/**
 * Request links (files sent to you) in the bot: a list under the secure section, one screen per
 * link (its URL, what it received, on/off, delete after a confirmation; on/off and delete are also on
 * each row of the list). New ones are made from a folder's screen, into that folder.
 */
import { deleteRequest, getRequest, listRequests, updateRequest, type RequestJson } from "../../core/secure/requests";
import { getFolder } from "../../core/secure/folders";
import type { BotContext } from "../context";
import { confirmScreen } from "./secure";
import { act, back, createScreen, dynamic, go, idOf, itemOf, open, payload, type Screen } from "./nav";

const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.user!.id;
const STATE: Record<RequestJson["state"], string> = { active: "🟢 open", inactive: "⏸ turned off", expired: "⌛ expired", full: "🚫 full" };

const requestOf = (ctx: BotContext) => getRequest(ctx.deps, uid(ctx), idOf(ctx));

const received = (r: RequestJson) => `${r.filesReceived}${r.maxFiles === null ? "" : ` of ${r.maxFiles}`}`;

export const requestsScreen = createScreen("requests", 0, async (ctx) =>
  (await listRequests(ctx.deps, uid(ctx))).length
    ? "📥 <b>Request links</b>: through each, anyone can send you files or texts into one of your folders."
    : "📥 <b>Request links</b>: none yet. Open a folder and tap “📥 New request link” to let anyone send you files into it.");

export const requestScreen = createScreen("request", 1, async (ctx) => {
  const r = await requestOf(ctx);
  const folder = await getFolder(ctx.deps, uid(ctx), r.folderId);
  const expiry = r.expiresAt ? `${r.expiresAt.replace("T", " ").slice(0, 16)} UTC` : "never";
  return `📥 <b>${esc(r.title)}</b>\n${esc(r.url)}\nInto folder: ${esc(folder.name)}\nReceived: ${received(r)}\nState: ${STATE[r.state]}\nExpires: ${expiry}`;
});

export const requestDelete = confirmScreen("request-delete", async (ctx) => `Delete the request link ${esc((await requestOf(ctx)).url)}? It stops taking files at once; what it received stays in the folder.`, async (ctx) => {
  await deleteRequest(ctx.deps, uid(ctx), idOf(ctx));
  return { screen: requestsScreen, view: [], notice: "🗑 Request link deleted." };
}, "request");

/** Turns request link `id` off or on; the notice says what that means. */
async function toggle(ctx: BotContext, id: number): Promise<{ request: RequestJson; notice: string }> {
  const request = await updateRequest(ctx.deps, uid(ctx), id, { isActive: !(await getRequest(ctx.deps, uid(ctx), id)).isActive });
  return { request, notice: request.isActive ? `▶️ Turned on: ${esc(request.title)} takes files again.` : `⏸ Turned off: ${esc(request.title)} answers that it takes nothing.` };
}

/** "Keep it" from a row's delete goes back to the list */
export const requestRowDelete = confirmScreen("requests-delete", (ctx) => requestDelete.text(ctx), async (ctx) => {
  await deleteRequest(ctx.deps, uid(ctx), idOf(ctx));
  return { screen: requestsScreen, view: [], notice: "🗑 Request link deleted." };
}, "requests", () => []);

dynamic(requestsScreen.menu, async (ctx, range) => {
  for (const r of await listRequests(ctx.deps, uid(ctx))) {
    go(range, requestsScreen, `${STATE[r.state].split(" ")[0]} ${r.title} (${received(r)})`, "request", (c) => [itemOf(c, requestsScreen)], r.id);
    range.text({ text: r.isActive ? "⏸" : "▶️", payload: payload(requestsScreen, r.id) }, (c) => act(c, async () => {
      await open(c, requestsScreen, [], (await toggle(c, itemOf(c, requestsScreen))).notice);
    }, "requests"));
    go(range, requestsScreen, "🗑", "requests-delete", (c) => [itemOf(c, requestsScreen)], r.id);
    range.row();
  }
});
back(requestsScreen, "⬅️ Folders", "folders");

dynamic(requestScreen.menu, async (ctx, range) => {
  const r = await requestOf(ctx);
  range.text({ text: r.isActive ? "⏸ Turn off" : "▶️ Turn on", payload: payload(requestScreen) }, (c) => act(c, async () => {
    const { request, notice } = await toggle(c, idOf(c));
    await open(c, requestScreen, [request.id], notice);
  }, "requests"));
  go(range, requestScreen, "🗑 Delete", "request-delete", (c) => [idOf(c)]);
  range.row();
});
back(requestScreen, "⬅️ Request links", "requests");

/** The request-link screens under the secure section's folder list. */
export function registerRequests(parent: Screen) {
  parent.menu.register(requestsScreen.menu);
  requestsScreen.menu.register([requestScreen.menu, requestRowDelete.menu]);
  requestScreen.menu.register(requestDelete.menu);
}
