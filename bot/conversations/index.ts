import { createConversation } from "@grammyjs/conversations";
import type { Composer, NextFunction } from "grammy";
import { refusedRole } from "../workspace";
import type { BotContext } from "../context";
import { DUPLICATE_LINK, duplicateLinkConversation, linkOptionConversation, newLinkConversation } from "./links";
import { AD_POST, adPostConversation } from "./ad-post";
import { placementOptionConversation } from "./ads";
import { PLACEMENT_OPTION } from "../menus/ads-placement";
import { newFolderConversation, shareConversation, shareOptionConversation } from "./secure";
import { trackConversation, trackerOptionConversation } from "./track";
import { inviteOptionConversation, newInviteConversation } from "./channels";
import { createTokenConversation, linkEmailConversation, newPixelConversation, newTagConversation, timeZoneConversation } from "./settings";
import { TIME_ZONE } from "../menus/reports";
import { LINK_OPTION } from "../menus/link-card";
import { NEW_LINK } from "../menus/link-list";
import { NEW_FOLDER, SHARE, SHARE_OPTION } from "../menus/secure";
import { NEW_TRACKER, TRACKER_OPTION } from "../menus/tracking";
import { INVITE_OPTION, NEW_INVITE } from "../menus/channels";
import { LINK_EMAIL, NEW_PIXEL, NEW_TAG, NEW_TOKEN } from "../menus/settings";
import { NEW_POSTBACK } from "../menus/postbacks";
import { newPostbackConversation } from "./postbacks";
import { NEW_TEAM } from "../menus/workspaces";
import { newTeamConversation } from "./workspaces";

/** Dialogs about the person rather than the workspace's data (a token is bounded by its maker's role in core): any role may enter them. */
const PERSONAL_DIALOGS = new Set([LINK_EMAIL, NEW_TEAM, NEW_TOKEN]);

/**
 * Entering a dialog that changes the workspace's data needs the editor role: for a viewer, every
 * way in (a button, a command, a pasted post) says so in words instead of asking the first question.
 */
export function guardDialogs(ctx: BotContext, next: NextFunction) {
  const enter = ctx.conversation.enter.bind(ctx.conversation);
  ctx.conversation.enter = (async (id: string, ...args: unknown[]) => {
    if (!PERSONAL_DIALOGS.has(id) && (await refusedRole(ctx))) return;
    return enter(id, ...(args as []));
  }) as typeof ctx.conversation.enter;
  return next();
}

/**
 * Every conversation, registered before the menus: a menu button may enter any of them, and the
 * conversations plugin knows a conversation only once its registration has run for the update.
 */
export const CONVERSATIONS = [
  createConversation(newLinkConversation, NEW_LINK),
  createConversation(linkOptionConversation, LINK_OPTION),
  createConversation(adPostConversation, AD_POST),
  createConversation(placementOptionConversation, PLACEMENT_OPTION),
  createConversation(duplicateLinkConversation, DUPLICATE_LINK),
  createConversation(newFolderConversation, NEW_FOLDER),
  createConversation(shareConversation, SHARE),
  createConversation(shareOptionConversation, SHARE_OPTION),
  createConversation(trackConversation, NEW_TRACKER),
  createConversation(trackerOptionConversation, TRACKER_OPTION),
  createConversation(newInviteConversation, NEW_INVITE),
  createConversation(inviteOptionConversation, INVITE_OPTION),
  createConversation(createTokenConversation, NEW_TOKEN),
  createConversation(newTagConversation, NEW_TAG),
  createConversation(newPixelConversation, NEW_PIXEL),
  createConversation(linkEmailConversation, LINK_EMAIL),
  createConversation(timeZoneConversation, TIME_ZONE),
  createConversation(newPostbackConversation, NEW_POSTBACK),
  createConversation(newTeamConversation, NEW_TEAM),
] as unknown as Composer<BotContext>[];
