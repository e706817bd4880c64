/**
 * The main menu and the tree of screens under it. Each section opens in place and every screen has a
 * way back; the tree is declared here so that screens need not import each other.
 */
import { reportsScreen } from "./reports";
import type { BotContext } from "../context";
import { l } from "../i18n";
import { go, mainScreen } from "./nav";
import { linkList } from "./link-list";
import { orphansScreen } from "./orphans";
import { deleteLinkScreen, linkCard } from "./link-card";
import { rotateScreen, webhookScreen } from "./link-webhook";
import { exportScreen, statsScreen } from "./link-stats";
import { foldersScreen, registerSecure } from "./secure";
import { registerRequests } from "./secure-requests";
import { folderPicker } from "./store-in";
import { registerTracking } from "./tracking";
import { registerChannels } from "./channels";
import { registerAds } from "./ads";
import { passkeys, pixels, settingsScreen, signIns, tags, tokens } from "./settings";
import { registerPostbacks } from "./postbacks";
import { registerPostbackKeys } from "./postback-keys";
import { registerWorkspaces } from "./workspaces";

/** Telegram refuses buttons that point at loopback addresses, so those get no app button. */
function isLoopback(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname.endsWith(".localhost") || /^127\./.test(url.hostname) || url.hostname === "[::1]";
}

export { mainScreen };
go(mainScreen, mainScreen, l("main-links"), "links", () => [0, 0]);
go(mainScreen, mainScreen, l("main-secure"), "folders", () => []);
mainScreen.row();
go(mainScreen, mainScreen, l("main-trackers"), "trackers", () => [0]);
go(mainScreen, mainScreen, l("main-channels"), "channels", () => []);
mainScreen.row();
go(mainScreen, mainScreen, l("main-ads"), "ads", () => [0, 0]);
go(mainScreen, mainScreen, l("main-settings"), "settings", () => []);
// the mini-app: a web_app button when BASE_URL is https (Telegram requires it), else a plain URL button
// (from the configuration alone: the main menu has no model)
mainScreen.dynamic((ctx: BotContext, range) => {
  const url = new URL(ctx.deps.config.baseUrl + "/");
  if (url.protocol === "https:") range.webApp(ctx.t("main-app"), url.href);
  else if (!isLoopback(url)) range.url(ctx.t("main-app"), url.href);
});

mainScreen.register(linkList);
linkList.register([linkCard, orphansScreen]);
linkCard.register([deleteLinkScreen, webhookScreen, statsScreen, exportScreen]);
webhookScreen.register(rotateScreen);
registerSecure(mainScreen);
mainScreen.register(folderPicker);
registerRequests(foldersScreen);
registerTracking(mainScreen);
registerChannels(mainScreen);
registerAds(mainScreen);
mainScreen.register(settingsScreen);
settingsScreen.register(reportsScreen);
registerPostbacks(settingsScreen);
registerPostbackKeys(settingsScreen);
registerWorkspaces(settingsScreen);
for (const list of [tokens, tags, pixels, passkeys, signIns]) {
  settingsScreen.register(list.list);
  list.list.register(list.confirm);
}

/** The menu middleware for the whole tree (answers every screen's buttons). */
export const menus = mainScreen;
