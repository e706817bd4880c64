/**
 * The main menu and the tree of screens under it. Each section opens in place and every screen has a
 * way back; the tree is declared here so that screens need not import each other.
 */
import { reportsScreen } from "./reports";
import type { BotContext } from "../context";
import { l } from "../i18n";
import { createScreen, dynamic, go } from "./nav";
import { linkList } from "./link-list";
import { orphansScreen } from "./orphans";
import { deleteLinkScreen, linkCard } from "./link-card";
import { rotateScreen, webhookScreen } from "./link-webhook";
import { exportScreen, statsScreen } from "./link-stats";
import { foldersScreen, registerSecure } from "./secure";
import { registerRequests } from "./secure-requests";
import { folderPicker } from "../features/secure-store";
import { registerTracking } from "./tracking";
import { registerChannels } from "./channels";
import { passkeys, pixels, settingsScreen, signIns, tags, tokens } from "./settings";


/** Telegram refuses buttons that point at loopback addresses, so those get no app button. */
function isLoopback(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname.endsWith(".localhost") || /^127\./.test(url.hostname) || url.hostname === "[::1]";
}

export const mainScreen = createScreen("main", 0, (ctx) => ctx.t("main-text"));
go(mainScreen.menu, mainScreen, l("main-links"), "links", () => [0, 0]);
go(mainScreen.menu, mainScreen, l("main-secure"), "folders", () => []);
mainScreen.menu.row();
go(mainScreen.menu, mainScreen, l("main-trackers"), "trackers", () => [0]);
go(mainScreen.menu, mainScreen, l("main-channels"), "channels", () => []);
mainScreen.menu.row();
go(mainScreen.menu, mainScreen, l("main-settings"), "settings", () => []);
// the mini-app: a web_app button when BASE_URL is https (Telegram requires it), else a plain URL button
dynamic(mainScreen.menu, (ctx: BotContext, range) => {
  const url = new URL(ctx.deps.config.baseUrl + "/");
  if (url.protocol === "https:") range.webApp(ctx.t("main-app"), url.href);
  else if (!isLoopback(url)) range.url(ctx.t("main-app"), url.href);
});

mainScreen.menu.register(linkList.menu);
linkList.menu.register([linkCard.menu, orphansScreen.menu]);
linkCard.menu.register([deleteLinkScreen.menu, webhookScreen.menu, statsScreen.menu, exportScreen.menu]);
webhookScreen.menu.register(rotateScreen.menu);
registerSecure(mainScreen);
mainScreen.menu.register(folderPicker.menu);
registerRequests(foldersScreen);
registerTracking(mainScreen);
registerChannels(mainScreen);
mainScreen.menu.register(settingsScreen.menu);
settingsScreen.menu.register(reportsScreen.menu);
for (const list of [tokens, tags, pixels, passkeys, signIns]) {
  settingsScreen.menu.register(list.list.menu);
  list.list.menu.register(list.confirm.menu);
}

/** The menu middleware for the whole tree (answers every screen's buttons). */
export const menus = mainScreen.menu;
