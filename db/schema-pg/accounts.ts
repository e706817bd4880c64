import { pgTable, text, uniqueIndex, index } from "drizzle-orm/pg-core";
import { int, json, id, ts, createdAt, bool, bytea } from "./columns";

export const users = pgTable("users", {
  id: id(),
  username: text("username"),
  firstName: text("first_name"),
  msgrId: int("msgr_id"),
  email: text("email"),
  plan: text("plan", { enum: ["free", "starter", "pro", "business"] }).notNull().default("free"),
  planExpiresAt: ts("plan_expires_at"),
  mergedIntoId: int("merged_into_id"),
  createdAt: createdAt(),
}, (t) => [index("users_username_idx").on(t.username)]);

export const identities = pgTable("identities", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["telegram", "email", "passkey"] }).notNull(),
  subject: text("subject").notNull(),
  data: json<Record<string, unknown>>("data"),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("identities_provider_subject").on(t.provider, t.subject), index("identities_user").on(t.userId)]);

export const emailCodes = pgTable("email_codes", {
  id: id(),
  email: text("email").notNull(),
  purpose: text("purpose", { enum: ["login", "link"] }).notNull(),
  userId: int("user_id").references(() => users.id, { onDelete: "cascade" }),
  codeHash: text("code_hash").notNull(),
  attempts: int("attempts").notNull().default(0),
  expiresAt: ts("expires_at").notNull(),
  consumedAt: ts("consumed_at"),
  createdAt: createdAt(),
}, (t) => [index("email_codes_email").on(t.email, t.purpose)]);

export const refreshTokens = pgTable("refresh_tokens", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  familyId: text("family_id").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
  revokedAt: ts("revoked_at"),
  createdAt: createdAt(),
}, (t) => [index("refresh_tokens_family").on(t.familyId)]);

export const apiTokens = pgTable("api_tokens", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  scopes: json<string[]>("scopes").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  hint: text("hint").notNull(),
  expiresAt: ts("expires_at"),
  lastUsedAt: ts("last_used_at"),
  revokedAt: ts("revoked_at"),
  createdAt: createdAt(),
}, (t) => [index("api_tokens_user").on(t.userId)]);

export const passkeys = pgTable("passkeys", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  credentialId: text("credential_id").notNull().unique(),
  publicKey: bytea("public_key").notNull(),
  counter: int("counter").notNull().default(0),
  transports: json<string[]>("transports"),
  deviceType: text("device_type"),
  backedUp: bool("backed_up").notNull().default(false),
  name: text("name"),
  lastUsedAt: ts("last_used_at"),
  createdAt: createdAt(),
}, (t) => [index("passkeys_user").on(t.userId)]);

export const webauthnChallenges = pgTable("webauthn_challenges", {
  id: id(),
  challenge: text("challenge").notNull().unique(),
  purpose: text("purpose", { enum: ["register", "login"] }).notNull(),
  userId: int("user_id").references(() => users.id, { onDelete: "cascade" }),
  expiresAt: ts("expires_at").notNull(),
  createdAt: createdAt(),
});

export const revokedSessions = pgTable("revoked_sessions", {
  sessionId: text("session_id").primaryKey(),
  revokedAt: ts("revoked_at").notNull(),
  expiresAt: ts("expires_at").notNull(),
});

export const emailCodeFailures = pgTable("email_code_failures", {
  id: id(),
  email: text("email").notNull(),
  failedAt: ts("failed_at").notNull(),
}, (t) => [index("email_code_failures_email").on(t.email, t.failedAt)]);
