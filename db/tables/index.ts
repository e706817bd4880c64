/**
 * Every table both databases have, declared once over a dialect's kit (db/kit.ts). db/schema.ts
 * (SQLite) and db/schema-pg.ts (PostgreSQL) export what this returns; drizzle-kit generates each
 * dialect's migrations from them.
 */
import type { Kit } from "../kit";
import { accountTables } from "./accounts";
import { analyticsTables } from "./analytics";
import { botTables } from "./bot";
import { channelTables } from "./channels";
import { clickTables } from "./clicks";
import { conversionTables } from "./conversions";
import { deliveryTables } from "./delivery";
import { linkTables } from "./links";
import { placementTables } from "./placements";
import { requestNoticeTables } from "./request-notices";
import { secureTables } from "./secure";
import { teamChatTables } from "./team-chats";
import { trackingTables } from "./tracking";
import { webhookTables } from "./webhooks";
import { workspaceTables } from "./workspaces";

export function declareTables(k: Kit) {
  const accounts = accountTables(k);
  const links = linkTables(k, accounts);
  const channels = channelTables(k, { ...accounts, ...links });
  const placements = placementTables(k, { ...accounts, ...links, ...channels });
  return {
    ...accounts,
    ...links,
    ...clickTables(k, { ...accounts, ...links }),
    ...analyticsTables(k, links),
    ...secureTables(k, accounts),
    ...trackingTables(k, accounts),
    ...channels,
    ...placements,
    ...requestNoticeTables(k, { ...accounts, ...channels }),
    ...deliveryTables(k, accounts),
    ...botTables(k),
    ...webhookTables(k, accounts),
    ...conversionTables(k, { ...accounts, ...links, ...channels, ...placements }),
    ...workspaceTables(k, accounts),
    ...teamChatTables(k, accounts),
  };
}
