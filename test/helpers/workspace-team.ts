/**
 * A team workspace with one thing of every family in it, made through the API by its owner acting in
 * it (`X-Workspace`), for the workspace tests: isolation and roles.
 * @both-databases: through the app's API, on whichever database the suite runs.
 */
import { expect } from "bun:test";
import type { TestApp } from "./app";
import { queueWebhook } from "../../core/delivery/outbox";

/** Ids of one thing per family, by the path prefix whose `:id` names it. */
export type FamilyIds = Record<string, number | string>;

export async function teamWithEverything(t: TestApp, token: string, name = "Acme") {
  const made = await t.request("POST", "/api/workspaces", { token, body: { name } });
  expect(made.status).toBe(201);
  const ws = made.json.id as number;
  const headers = { "x-workspace": String(ws) };
  const post = async (path: string, body: unknown) => {
    const res = await t.request("POST", path, { token, headers, body });
    expect(res.status, `${path}: ${res.text}`).toBe(201);
    return res.json;
  };
  const link = await post("/api/links", { url: "https://team.example/a" });
  const tag = await post("/api/tags", { name: "team" });
  const pixel = await post("/api/pixels", { name: "Ads", type: "facebook", pixelId: "1234567890" });
  const domain = await post("/api/domains", { hostname: "go.team.example" });
  const folder = await post("/api/secure/folders", { name: "team" });
  const file = await post("/api/secure/files", { folderId: folder.id, contentType: "text", textContent: "hi" });
  const share = await post("/api/secure/links", { fileId: file.id, expiresInHours: 24 });
  const request = await post("/api/secure/requests", { folderId: folder.id, title: "CV" });
  const tracker = await post("/api/tracking", { name: "team", keyword: "team" });
  const channel = await post("/api/channels", { chat: "@teamchan" });
  const invite = await post(`/api/channels/${channel.id}/invites`, { name: "team" });
  const placement = await post("/api/placements", { venue: "@bigchannel" });
  const apiToken = await post("/api/tokens", { name: "team" });
  const postback = await post("/api/postbacks", { url: "https://net.team.example/pb?c={click_id}", events: ["click"] });
  const postbackKey = await post("/api/postback-keys", { name: "team" });
  // a webhook delivery of the team's (no route makes one but a click)
  const delivery = await queueWebhook(t.deps.asyncDb, t.clock.now(), {
    userId: ws,
    topic: "click",
    refId: link.id,
    url: "https://hooks.team.example/",
    data: { event: "click" },
  });
  const me = (await t.request("GET", "/api/auth/me", { token })).json.user.id as number;
  const ids: FamilyIds = {
    "/api/links": link.id,
    "/api/tags": tag.id,
    "/api/pixels": pixel.id,
    "/api/domains": domain.id,
    "/api/secure/folders": folder.id,
    "/api/secure/files": file.id,
    "/api/secure/links": share.id,
    "/api/secure/requests": request.id,
    "/api/tracking": tracker.id,
    "/api/channels": channel.id,
    "/api/invites": invite.id,
    "/api/placements": placement.id,
    "/api/tokens": apiToken.id,
    "/api/postbacks": postback.id,
    "/api/postback-keys": postbackKey.id,
    "/api/webhooks/links": link.id,
    "/api/workspaces": ws,
    "/api/webhooks/deliveries": delivery,
    "/members": me,
  };
  return { ws, headers, ids, apiToken: apiToken.token as string };
}
