import type { Kit } from "../kit";
import type { accountTables } from "./accounts";

/** A member's role in a workspace, strongest first (the role table is core/tokens/roles.ts). */
export const ROLES = ["owner", "admin", "editor", "viewer"] as const;

export function workspaceTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  /**
   * The people of a team workspace and their role. A person's personal workspace (their own users
   * row) has no rows here: they are its owner and nobody else can be a member.
   */
  const workspaceMembers = k.table(
    "workspace_members",
    {
      workspaceId: k
        .int("workspace_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      role: k.text("role", { enum: ROLES }).notNull(),
      addedAt: k.ts("added_at").notNull(),
    },
    (t) => [k.primaryKey({ columns: [t.workspaceId, t.userId] }), k.index("workspace_members_user").on(t.userId)],
  );

  /** One-use invitations into a team workspace (a Telegram deep link); the token is stored as its SHA-256. */
  const workspaceInvites = k.table(
    "workspace_invites",
    {
      id: k.id(),
      workspaceId: k
        .int("workspace_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      tokenHash: k.text("token_hash").notNull().unique(),
      role: k.text("role", { enum: ROLES }).notNull(),
      madeBy: k.int("made_by").references(() => users.id, { onDelete: "set null" }),
      expiresAt: k.ts("expires_at").notNull(),
      usedBy: k.int("used_by").references(() => users.id, { onDelete: "set null" }),
      usedAt: k.ts("used_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("workspace_invites_workspace").on(t.workspaceId)],
  );

  /**
   * Who changed what in a workspace, and when: one row per create, change, delete, revoke, approve
   * and role change. Kept a year (the cleanup job deletes older rows).
   */
  const auditLog = k.table(
    "audit_log",
    {
      id: k.id(),
      workspaceId: k
        .int("workspace_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      /** the person who did it; null when it was the service itself or the person's account is gone */
      actorId: k.int("actor_id").references(() => users.id, { onDelete: "set null" }),
      /** e.g. "links.create", "members.role" */
      action: k.text("action").notNull(),
      subjectType: k.text("subject_type").notNull(),
      subjectId: k.text("subject_id"),
      /** what was sent (secrets dropped), and before/after for role changes */
      details: k.json<Record<string, unknown>>("details"),
      at: k.ts("at").notNull(),
    },
    (t) => [k.index("audit_log_workspace_at").on(t.workspaceId, t.at, t.id), k.index("audit_log_at").on(t.at)],
  );

  return { workspaceMembers, workspaceInvites, auditLog };
}
