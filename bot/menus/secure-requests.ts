/**
 * Request links (files sent to you) in the bot: a list under the secure section, one screen per
 * link (its URL, what it received, on/off, delete after a confirmation; on/off and delete are also on
 * each row of the list). New ones are made from a folder's screen, into that folder.
 */
import { deleteRequest, getRequest, listRequests, updateRequest, type RequestJson } from "../../core/secure/requests";
import { write } from "../audited";
import { getFolder } from "../../core/secure/folders";
import type { BotContext } from "../context";
import { mayChange, writes } from "../workspace";
import { date, l } from "../i18n";
import { confirmScreen } from "./confirm";
import { act, back, buttons, createScreen, go, idOf, itemOf, open, payload, type Screen } from "./nav";

const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.owner.id;
const ICON: Record<RequestJson["state"], string> = { active: "🟢", inactive: "⏸", expired: "⌛", full: "🚫" };
/** The state in words (`request-state-<state>`). */
const stateOf = (ctx: BotContext, r: RequestJson) => `${ICON[r.state]} ${ctx.t(`request-state-${r.state}`)}`;

const requestOf = (ctx: BotContext) => getRequest(ctx.deps, uid(ctx), idOf(ctx));

const received = (ctx: BotContext, r: RequestJson) =>
  r.maxFiles === null ? String(r.filesReceived) : ctx.t("request-received-of", { count: r.filesReceived, max: r.maxFiles });

const requestsScreen = createScreen("requests", 0, {
  load: (ctx) => listRequests(ctx.deps, uid(ctx)),
  body: (ctx, requests) => ctx.t(requests.length ? "requests-links-title" : "requests-links-none"),
});

/** A request link and the folder it fills, read once per draw. */
export const requestScreen = createScreen("request", 1, {
  load: async (ctx, [id = 0]) => {
    const request = await getRequest(ctx.deps, uid(ctx), id);
    return { request, folder: await getFolder(ctx.deps, uid(ctx), request.folderId) };
  },
  body: (ctx, { request: r, folder }) =>
    ctx.t("request-screen", {
      title: esc(r.title),
      url: esc(r.url),
      folder: esc(folder.name),
      received: received(ctx, r),
      state: stateOf(ctx, r),
      expiry: r.expiresAt ? date(ctx, r.expiresAt, true) : ctx.t("never"),
    }),
});

const requestDelete = confirmScreen(
  "request-delete",
  async (ctx) => ctx.t("request-delete-confirm", { url: esc((await requestOf(ctx)).url) }),
  async (ctx) => {
    mayChange(ctx);
    await write(ctx, deleteRequest, idOf(ctx));
    return { screen: requestsScreen, view: [], notice: ctx.t("request-deleted") };
  },
  "request",
);

/** Turns request link `id` off or on; the notice says what that means. */
async function toggle(ctx: BotContext, id: number): Promise<{ request: RequestJson; notice: string }> {
  mayChange(ctx);
  const request = await write(ctx, updateRequest, id, { isActive: !(await getRequest(ctx.deps, uid(ctx), id)).isActive });
  return { request, notice: ctx.t(request.isActive ? "request-turned-on" : "request-turned-off", { title: esc(request.title) }) };
}

/** "Keep it" from a row's delete goes back to the list */
const requestRowDelete = confirmScreen(
  "requests-delete",
  (ctx) => requestDelete.body(ctx),
  async (ctx) => {
    mayChange(ctx);
    await write(ctx, deleteRequest, idOf(ctx));
    return { screen: requestsScreen, view: [], notice: ctx.t("request-deleted") };
  },
  "requests",
  () => [],
);

buttons(requestsScreen, (ctx, range, requests) => {
  for (const r of requests) {
    go(range, requestsScreen, `${ICON[r.state]} ${r.title} (${received(ctx, r)})`, "request", (c) => [itemOf(c, requestsScreen)], r.id);
    // a viewer reads the request links; turning them off and on and deleting them is for editors and up
    const w = writes(ctx, range);
    w.text({ text: r.isActive ? "⏸" : "▶️", payload: payload(requestsScreen, r.id) }, (c) =>
      act(
        c,
        async () => {
          await open(c, requestsScreen, [], (await toggle(c, itemOf(c, requestsScreen))).notice);
        },
        "requests",
      ),
    );
    go(w, requestsScreen, "🗑", "requests-delete", (c) => [itemOf(c, requestsScreen)], r.id);
    range.row();
  }
});
back(requestsScreen, l("requests-links-back"), "folders");

buttons(requestScreen, (ctx, range, { request: r }) => {
  range.copyText(l("card-copy"), r.url).row();
  const w = writes(ctx, range);
  w.text({ text: ctx.t(r.isActive ? "card-turn-off" : "card-turn-on"), payload: payload(requestScreen) }, (c) =>
    act(
      c,
      async () => {
        const { request, notice } = await toggle(c, idOf(c));
        await open(c, requestScreen, [request.id], notice);
      },
      "requests",
    ),
  );
  go(w, requestScreen, l("card-delete"), "request-delete", (c) => [idOf(c)]);
  range.row();
});
back(requestScreen, l("request-back"), "requests");

/** The request-link screens under the secure section's folder list. */
export function registerRequests(parent: Screen) {
  parent.register(requestsScreen);
  requestsScreen.register([requestScreen, requestRowDelete]);
  requestScreen.register(requestDelete);
}
