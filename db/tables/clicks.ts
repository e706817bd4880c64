import type { Kit } from "../kit";
import type { accountTables } from "./accounts";
import type { linkTables } from "./links";

/**
 * What visits leave behind: the clicks of links (with the user agents they name and the visitors that
 * decide uniqueness), the click journal's commit marks, and the visits to codes no active link
 * answers (with the tombstones that attribute a deleted link's code to its owner).
 */
export function clickTables(
  k: Kit,
  { users, links }: Pick<ReturnType<typeof accountTables>, "users"> & Pick<ReturnType<typeof linkTables>, "links">,
) {
  return { ...clickRowTables(k, { links }), ...orphanVisitTables(k, { users }) };
}

/** The clicks, the user agents and visitors they name, and the journal's commit marks. */
function clickRowTables(k: Kit, { links }: Pick<ReturnType<typeof linkTables>, "links">) {
  /**
   * Each distinct User-Agent once: traffic repeats a few hundred of them, so a click keeps a small id
   * instead of ~110 bytes of text (half the row, and half of what every insert and checkpoint copies).
   * Rows are only ever added.
   */
  const userAgents = k.table("user_agents", {
    id: k.id(),
    ua: k.text("ua").notNull().unique(),
  });

  const clicks = k.table(
    "clicks",
    {
      id: k.id(),
      linkId: k
        .int("link_id")
        .notNull()
        .references(() => links.id, { onDelete: "cascade" }),
      clickedAt: k.ts("clicked_at").notNull(),
      ip: k.text("ip"),
      country: k.text("country"),
      city: k.text("city"),
      /** mobile, tablet, desktop, bot, other */
      device: k.text("device"),
      browser: k.text("browser"),
      os: k.text("os"),
      referer: k.text("referer"),
      /**
       * the visitor's User-Agent (user_agents), null when none was sent. No foreign key: the writer
       * makes the agent's row before its clicks in the same transaction and agents are never deleted,
       * so the key guarded nothing, yet its check per row was a third of the PostgreSQL writer's
       * clicks INSERT (docs/analytics.md)
       */
      uaId: k.int("ua_id"),
      isBot: k.bool("is_bot").notNull().default(false),
      botName: k.text("bot_name"),
      isUnique: k.bool("is_unique").notNull().default(false),
      /** index of the redirect rule that sent the visitor, null when none did */
      rule: k.int("rule"),
      /** index of the A/B variant the visitor got, null when the link has none (or a rule caught them) */
      variant: k.int("variant"),
      /** the click's own id (core/conversions/click-id.ts), fixed at the redirect: targets and conversions carry it */
      clickId: k.text("click_id"),
      /** the short link's own `sub1`…`sub5` query parameters, and `fbclid` (for Meta's `fbc`) */
      sub1: k.text("sub1"),
      sub2: k.text("sub2"),
      sub3: k.text("sub3"),
      sub4: k.text("sub4"),
      sub5: k.text("sub5"),
      fbclid: k.text("fbclid"),
    },
    (t) => [k.index("clicks_link_time").on(t.linkId, t.clickedAt), k.index("clicks_click_id").on(t.clickId)],
  );

  /** keeps is_unique decidable without scanning clicks: last time a visitor (hash of IP + UA) clicked a link */
  const clickVisitors = k.table(
    "click_visitors",
    {
      linkId: k
        .int("link_id")
        .notNull()
        .references(() => links.id, { onDelete: "cascade" }),
      visitorHash: k.text("visitor_hash").notNull(),
      lastUniqueAt: k.ts("last_unique_at").notNull(),
    },
    (t) => [k.primaryKey({ columns: [t.linkId, t.visitorHash] })],
  );

  /**
   * How far the click writer has committed each click journal: the sequence number of the last click
   * it stored (or dropped for good), written in the same transaction as that click's batch. At start,
   * journaled clicks above it are written again and those at or below it never are, so a batch that
   * committed is not written twice even when its journal segment outlived it. One row per journal:
   * `local` for the service's own; a node of a cluster would keep its own row.
   *
   * In cluster mode the row of `node:<NODE_NAME>` is also the name's hold: `holder` is the id of the
   * journal directory whose node holds the name, `generation` goes up at each start that takes the
   * name (the fencing token: a writer marks only while the row still has the generation it started
   * with, in the same transaction as its batch), and `heldAt` is the holder's last heartbeat. A
   * holder's mark set aside when another journal took the name is kept as `node:<NODE_NAME>@<holder>`.
   */
  const clickJournal = k.table("click_journal", {
    journal: k.text("journal").primaryKey(),
    seq: k.int("seq").notNull(),
    holder: k.text("holder"),
    generation: k.int("generation").notNull().default(0),
    heldAt: k.ts("held_at"),
  });

  return { userAgents, clicks, clickVisitors, clickJournal };
}

/**
 * Visits to codes no active link answers, and the tombstones that give a deleted link's code to its owner.
 */
function orphanVisitTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  /**
   * The owner of a deleted link's code, kept so that later visits to that code stay attributable to
   * them as orphan visits. A new link may take the code again; the live link then answers.
   */
  const linkTombstones = k.table("link_tombstones", {
    code: k.text("code").primaryKey(),
    userId: k
      .int("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deletedAt: k.ts("deleted_at").notNull(),
  });

  /**
   * Visits to SHORT_URL/<code> that found no active link: unknown codes, disabled and deleted links.
   * `user_id` is who the visit is shown to, decided when it is recorded (the disabled or deleted
   * link's owner, else the owner of the custom domain it came in on); null when nobody owns it.
   * No address or agent is kept.
   */
  /**
   * Orphan visits (to codes with no active link), counted per owner, code, host and UTC day: a scan of
   * a million random codes adds a million to a count, not a million rows. Visits nobody may see are
   * not stored at all. `host` is the request's host name, "" when it had none.
   */
  const orphanVisitDays = k.table(
    "orphan_visit_days",
    {
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      code: k.text("code").notNull(),
      host: k.text("host").notNull().default(""),
      day: k.ts("day").notNull(),
      visits: k.int("visits").notNull().default(0),
      lastAt: k.ts("last_at").notNull(),
    },
    (t) => [k.primaryKey({ columns: [t.userId, t.day, t.code, t.host] })],
  );

  return { linkTombstones, orphanVisitDays };
}
