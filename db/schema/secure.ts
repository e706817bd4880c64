import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const secureFolders = sqliteTable("secure_folders", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description"),
  isPaused: bool("is_paused").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: ts("updated_at").notNull().$defaultFn(() => new Date()),
}, (t) => [index("secure_folders_user").on(t.userId)]);

export const secureFiles = sqliteTable("secure_files", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  folderId: integer("folder_id").notNull().references(() => secureFolders.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description"),
  contentType: text("content_type", { enum: ["text", "image", "video", "audio", "file"] }).notNull(),
  textContent: text("text_content"),
  mimeType: text("mime_type"),
  fileName: text("file_name"),
  fileSize: integer("file_size"),
  /** path relative to DATA_DIR of the stored bytes */
  storagePath: text("storage_path"),
  /** the request link it came through, if any: what a request link received counts against its own cap */
  requestId: integer("request_id"),
  createdAt: createdAt(),
}, (t) => [index("secure_files_folder").on(t.folderId), index("secure_files_user").on(t.userId), index("secure_files_request").on(t.requestId)]);

export const secureLinks = sqliteTable("secure_links", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  fileId: integer("file_id").notNull().references(() => secureFiles.id, { onDelete: "cascade" }),
  code: text("code").notNull().unique(),
  expiresAt: ts("expires_at").notNull(),
  maxViews: integer("max_views"),
  viewCount: integer("view_count").notNull().default(0),
  isRevoked: bool("is_revoked").notNull().default(false),
  /** argon2id hash of the optional share password; null: no password */
  passwordHash: text("password_hash"),
  /** send the owner a bot message for each counted view */
  notifyOnView: bool("notify_on_view").notNull().default(false),
  createdAt: createdAt(),
}, (t) => [index("secure_links_file").on(t.fileId)]);

/** Request links: anyone with SHORT_URL/r/<code> may upload files or texts into the owner's folder. */
export const secureRequests = sqliteTable("secure_requests", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  folderId: integer("folder_id").notNull().references(() => secureFolders.id, { onDelete: "cascade" }),
  code: text("code").notNull().unique(),
  title: text("title").notNull().default(""),
  /** null: never expires */
  expiresAt: ts("expires_at"),
  /** null: no maximum */
  maxFiles: integer("max_files"),
  filesReceived: integer("files_received").notNull().default(0),
  isActive: bool("is_active").notNull().default(true),
  createdAt: createdAt(),
}, (t) => [index("secure_requests_user").on(t.userId), index("secure_requests_folder").on(t.folderId)]);
