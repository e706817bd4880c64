import { sqliteTable, integer, text, blob, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { ts, createdAt, bool } from "./columns";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username"),
  firstName: text("first_name"),
  /** the Telegram user id, when a Telegram identity is linked (mirrors the identity for fast lookups) */
  msgrId: integer("msgr_id"),
  email: text("email"),
  plan: text("plan", { enum: ["free", "starter", "pro", "business"] }).notNull().default("free"),
  planExpiresAt: ts("plan_expires_at"),
  /** set when this account was merged into another; such a row owns nothing and cannot sign in */
  mergedIntoId: integer("merged_into_id"),
  createdAt: createdAt(),
}, (t) => [index("users_username_idx").on(t.username)]);

export const identities = sqliteTable("identities", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["telegram", "email", "passkey"] }).notNull(),
  subject: text("subject").notNull(),
  data: text("data", { mode: "json" }).$type<Record<string, unknown>>(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("identities_provider_subject").on(t.provider, t.subject), index("identities_user").on(t.userId)]);

export const emailCodes = sqliteTable("email_codes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull(),
  purpose: text("purpose", { enum: ["login", "link"] }).notNull(),
  /** for purpose=link: the account asking to link */
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  codeHash: text("code_hash").notNull(),
  attempts: integer("attempts").notNull().default(0),
  expiresAt: ts("expires_at").notNull(),
  consumedAt: ts("consumed_at"),
  createdAt: createdAt(),
}, (t) => [index("email_codes_email").on(t.email, t.purpose)]);

export const refreshTokens = sqliteTable("refresh_tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  familyId: text("family_id").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
  revokedAt: ts("revoked_at"),
  createdAt: createdAt(),
}, (t) => [index("refresh_tokens_family").on(t.familyId)]);

export const apiTokens = sqliteTable("api_tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  /** the first characters of the token, shown in lists so the user can tell tokens apart */
  hint: text("hint").notNull(),
  expiresAt: ts("expires_at"),
  lastUsedAt: ts("last_used_at"),
  revokedAt: ts("revoked_at"),
  createdAt: createdAt(),
}, (t) => [index("api_tokens_user").on(t.userId)]);

export const passkeys = sqliteTable("passkeys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  credentialId: text("credential_id").notNull().unique(),
  publicKey: blob("public_key", { mode: "buffer" }).notNull(),
  counter: integer("counter").notNull().default(0),
  transports: text("transports", { mode: "json" }).$type<string[]>(),
  deviceType: text("device_type"),
  backedUp: bool("backed_up").notNull().default(false),
  name: text("name"),
  lastUsedAt: ts("last_used_at"),
  createdAt: createdAt(),
}, (t) => [index("passkeys_user").on(t.userId)]);

export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  challenge: text("challenge").notNull().unique(),
  purpose: text("purpose", { enum: ["register", "login"] }).notNull(),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  expiresAt: ts("expires_at").notNull(),
  createdAt: createdAt(),
});

/**
 * Sign-ins (refresh-token families) that were ended: logout or a reused refresh token. Access tokens
 * carry their sign-in's id, and one listed here answers 401 until it would have expired anyway.
 */
export const revokedSessions = sqliteTable("revoked_sessions", {
  sessionId: text("session_id").primaryKey(),
  revokedAt: ts("revoked_at").notNull(),
  /** when the last access token of this sign-in expires; the row can go after that */
  expiresAt: ts("expires_at").notNull(),
});

/** Wrong email codes, one row each: the hourly guess budget of an address across all its codes. */
export const emailCodeFailures = sqliteTable("email_code_failures", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull(),
  failedAt: ts("failed_at").notNull(),
}, (t) => [index("email_code_failures_email").on(t.email, t.failedAt)]);
