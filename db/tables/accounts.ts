import type { Kit } from "../kit";

export function accountTables(k: Kit) {
  const people = personTables(k);
  return { ...people, ...signInTables(k, people), ...credentialTables(k, people) };
}

/** The people: an account, the identities it signs in with, and its settings. */
function personTables(k: Kit) {
  const users = k.table(
    "users",
    {
      id: k.id(),
      username: k.text("username"),
      firstName: k.text("first_name"),
      /** the Telegram user id, when a Telegram identity is linked (mirrors the identity for fast lookups) */
      msgrId: k.int("msgr_id"),
      email: k.text("email"),
      plan: k
        .text("plan", { enum: ["free", "starter", "pro", "business"] })
        .notNull()
        .default("free"),
      planExpiresAt: k.ts("plan_expires_at"),
      /** set when this account was merged into another; such a row owns nothing and cannot sign in */
      mergedIntoId: k.int("merged_into_id"),
      /** the bot's language chosen in Settings; null follows the Telegram app's language */
      language: k.text("language", { enum: ["en", "ru"] }),
      /** the language of the user's Telegram app (`language_code`, e.g. "ru", "pt-br") when last seen by the bot */
      appLanguage: k.text("app_language"),
      /**
       * A person signs in; a team is a workspace (an owner account of links, channels, tokens…) that
       * people act in as members (workspace_members). A person's own row is their personal workspace.
       */
      kind: k
        .text("kind", { enum: ["person", "team"] })
        .notNull()
        .default("person"),
      /** a team's name (null for a person) */
      name: k.text("name"),
      /** the workspace a person last chose to act in (the bot's current workspace); null: their own */
      currentWorkspaceId: k.int("current_workspace_id"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("users_username_idx").on(t.username)],
  );

  const identities = k.table(
    "identities",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      provider: k.text("provider", { enum: ["telegram", "email", "passkey"] }).notNull(),
      subject: k.text("subject").notNull(),
      data: k.json<Record<string, unknown>>("data"),
      createdAt: k.createdAt(),
    },
    (t) => [k.uniqueIndex("identities_provider_subject").on(t.provider, t.subject), k.index("identities_user").on(t.userId)],
  );

  /** A user's own settings: their time zone (stats, reports and times they type) and their report. */
  const userSettings = k.table(
    "user_settings",
    {
      userId: k
        .int("user_id")
        .primaryKey()
        .references(() => users.id, { onDelete: "cascade" }),
      /** an IANA time zone name */
      timeZone: k.text("time_zone").notNull().default("UTC"),
      /** a summary of the day or the week sent by the bot, or none */
      reportEvery: k
        .text("report_every", { enum: ["off", "day", "week"] })
        .notNull()
        .default("off"),
      /** the hour of the day (0–23, in time_zone) the report is sent at */
      reportHour: k.int("report_hour").notNull().default(9),
      /** the day a weekly report is sent on: 1 = Monday … 7 = Sunday */
      reportWeekday: k.int("report_weekday").notNull().default(1),
      /** the end of the last period a report was queued for: each period is reported once, on every node */
      reportSentFor: k.ts("report_sent_for"),
      /** the currency a bare price (`5000`) is read in; null: RUB for a Russian-speaking account, else USD */
      currency: k.text("currency"),
      updatedAt: k.ts("updated_at").notNull(),
    },
    (t) => [k.index("user_settings_report").on(t.reportEvery)],
  );

  return { users, identities, userSettings };
}

/**
 * What signing in leaves behind: email codes and their failures, refresh tokens, revoked sessions, passkey challenges.
 */
function signInTables(k: Kit, { users }: Pick<ReturnType<typeof personTables>, "users">) {
  const emailCodes = k.table(
    "email_codes",
    {
      id: k.id(),
      email: k.text("email").notNull(),
      purpose: k.text("purpose", { enum: ["login", "link"] }).notNull(),
      /** for purpose=link: the account asking to link */
      userId: k.int("user_id").references(() => users.id, { onDelete: "cascade" }),
      codeHash: k.text("code_hash").notNull(),
      attempts: k.int("attempts").notNull().default(0),
      expiresAt: k.ts("expires_at").notNull(),
      consumedAt: k.ts("consumed_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("email_codes_email").on(t.email, t.purpose)],
  );

  /** Wrong email codes, one row each: the hourly guess budget of an address across all its codes. */
  const emailCodeFailures = k.table(
    "email_code_failures",
    {
      id: k.id(),
      email: k.text("email").notNull(),
      failedAt: k.ts("failed_at").notNull(),
    },
    (t) => [k.index("email_code_failures_email").on(t.email, t.failedAt)],
  );

  const refreshTokens = k.table(
    "refresh_tokens",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      familyId: k.text("family_id").notNull(),
      tokenHash: k.text("token_hash").notNull().unique(),
      expiresAt: k.ts("expires_at").notNull(),
      usedAt: k.ts("used_at"),
      revokedAt: k.ts("revoked_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("refresh_tokens_family").on(t.familyId)],
  );

  /**
   * Sign-ins (refresh-token families) that were ended: logout or a reused refresh token. Access tokens
   * carry their sign-in's id, and one listed here answers 401 until it would have expired anyway.
   */
  const revokedSessions = k.table("revoked_sessions", {
    sessionId: k.text("session_id").primaryKey(),
    revokedAt: k.ts("revoked_at").notNull(),
    /** when the last access token of this sign-in expires; the row can go after that */
    expiresAt: k.ts("expires_at").notNull(),
  });

  const webauthnChallenges = k.table("webauthn_challenges", {
    id: k.id(),
    challenge: k.text("challenge").notNull().unique(),
    purpose: k.text("purpose", { enum: ["register", "login"] }).notNull(),
    userId: k.int("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: k.ts("expires_at").notNull(),
    createdAt: k.createdAt(),
  });

  return { emailCodes, emailCodeFailures, refreshTokens, revokedSessions, webauthnChallenges };
}

/** The credentials an account keeps: API tokens and passkeys. */
function credentialTables(k: Kit, { users }: Pick<ReturnType<typeof personTables>, "users">) {
  const apiTokens = k.table(
    "api_tokens",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      scopes: k.json<string[]>("scopes").notNull(),
      /**
       * The person who made the token (user_id is the workspace it acts in). A token stops working when
       * its maker leaves the workspace or no longer holds the role its scopes need. Null for tokens
       * made before workspaces: their maker is user_id, a person's personal workspace.
       * No foreign key: adding one to an existing SQLite table cannot carry its delete rule.
       */
      madeBy: k.int("made_by"),
      tokenHash: k.text("token_hash").notNull().unique(),
      /** the first characters of the token, shown in lists so the user can tell tokens apart */
      hint: k.text("hint").notNull(),
      expiresAt: k.ts("expires_at"),
      lastUsedAt: k.ts("last_used_at"),
      revokedAt: k.ts("revoked_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("api_tokens_user").on(t.userId)],
  );

  const passkeys = k.table(
    "passkeys",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      credentialId: k.text("credential_id").notNull().unique(),
      publicKey: k.bytes("public_key").notNull(),
      counter: k.int("counter").notNull().default(0),
      transports: k.json<string[]>("transports"),
      deviceType: k.text("device_type"),
      backedUp: k.bool("backed_up").notNull().default(false),
      name: k.text("name"),
      lastUsedAt: k.ts("last_used_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("passkeys_user").on(t.userId)],
  );

  return { apiTokens, passkeys };
}
