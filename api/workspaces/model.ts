import { t, type Static } from "elysia";
import { DateTime, Int, Words } from "../shared/models";
import { ROLES } from "../../core/tokens/roles";
import { WORKSPACE_NAME_MAX } from "../../core/workspaces/workspaces";
import { AUDIT_EXPORT_FORMATS } from "../../core/workspaces/audit-export";

const role = Words(ROLES, { description: "owner, admin, editor or viewer" });
const WorkspaceId = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

const auditFilter = {
  action: t.Optional(t.String({ maxLength: 100, description: "one action (links.create) or an area (links)" })),
  actor: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "the person's id" })),
  from: t.Optional(t.String({ format: "date-time", description: "entries at or after this time" })),
  to: t.Optional(t.String({ format: "date-time", description: "entries at or before this time" })),
};

export const WorkspaceModel = {
  create: t.Object({ name: t.String({ minLength: 1, maxLength: WORKSPACE_NAME_MAX }) }),
  update: t.Object({
    name: t.Optional(t.String({ minLength: 1, maxLength: WORKSPACE_NAME_MAX })),
    currency: t.Optional(
      t.Nullable(
        t.String({
          minLength: 3,
          maxLength: 3,
          description: "the ISO 4217 code bare prices are read in (a team's, set by an admin); null: the default",
        }),
      ),
    ),
  }),
  join: t.Object({
    token: t.String({ minLength: 1, maxLength: 200, description: "the invitation's token (the part after join_ in its link)" }),
  }),
  invite: t.Object({ role }),
  memberRole: t.Object({ role }),
  idParams: t.Object({ id: WorkspaceId }),
  memberParams: t.Object({ id: WorkspaceId, user_id: WorkspaceId }),
  auditQuery: t.Object({
    page: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000, multipleOf: 1, default: 1, error: "must be a whole number, 1 or more" })),
    limit: t.Optional(
      t.Numeric({
        minimum: 1,
        maximum: 100,
        multipleOf: 1,
        default: 20,
        error: "must be a whole number from 1 to 100",
        description: "page size, default 20",
      }),
    ),
    ...auditFilter,
  }),
  auditExport: t.Object({ format: Words(AUDIT_EXPORT_FORMATS, { description: "csv or xlsx" }), ...auditFilter }),
};

const workspace = t.Object({
  id: Int(),
  name: t.String(),
  role,
  personal: t.Boolean({ description: "the person's own workspace (their account); it has no other members" }),
});

const member = t.Object({
  id: Int({ description: "the person's account id" }),
  name: t.Nullable(t.String()),
  username: t.Nullable(t.String()),
  role,
  addedAt: DateTime(),
});

const entry = t.Object({
  at: DateTime(),
  actor: t.Object({ id: t.Nullable(Int()), name: t.Nullable(t.String()) }),
  action: t.String({ description: "<area>.<verb>, e.g. links.create, members.role" }),
  subject: t.Object({ type: t.String(), id: t.Nullable(t.String()) }),
  details: t.Nullable(t.Record(t.String(), t.Unknown(), { description: "what was sent (secrets dropped), or before and after" })),
});

/** What the workspace routes answer. */
export const WorkspaceViews = {
  workspace,
  workspaces: t.Array(workspace),
  invite: t.Object({
    url: t.String({ description: "a one-use t.me link into the bot (the mini-app's when no bot is configured)" }),
    token: t.String({ description: "the invitation's token, for POST /api/workspaces/join" }),
    expires_at: DateTime(),
  }),
  member,
  members: t.Array(member),
  audit: t.Object({ data: t.Array(entry), total: Int(), page: Int(), limit: Int() }),
  exported: t.Object({ ok: t.Boolean(), message: t.String(), rows: Int() }),
};

/** The answers' types, for the mini-app's pages. */
export type Workspace = Static<typeof workspace>;
export type WorkspaceMember = Static<typeof member>;
export type AuditEntry = Static<typeof entry>;
