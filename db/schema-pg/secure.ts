import { pgTable, text, index } from "drizzle-orm/pg-core";
import { int, id, ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const secureFolders = pgTable("secure_folders", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description"),
  isPaused: bool("is_paused").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: ts("updated_at").notNull().$defaultFn(() => new Date()),
}, (t) => [index("secure_folders_user").on(t.userId)]);

export const secureFiles = pgTable("secure_files", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  folderId: int("folder_id").notNull().references(() => secureFolders.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description"),
  contentType: text("content_type", { enum: ["text", "image", "video", "audio", "file"] }).notNull(),
  textContent: text("text_content"),
  mimeType: text("mime_type"),
  fileName: text("file_name"),
  fileSize: int("file_size"),
  storagePath: text("storage_path"),
  requestId: int("request_id"),
  createdAt: createdAt(),
}, (t) => [index("secure_files_folder").on(t.folderId), index("secure_files_user").on(t.userId), index("secure_files_request").on(t.requestId)]);

export const secureLinks = pgTable("secure_links", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  fileId: int("file_id").notNull().references(() => secureFiles.id, { onDelete: "cascade" }),
  code: text("code").notNull().unique(),
  expiresAt: ts("expires_at").notNull(),
  maxViews: int("max_views"),
  viewCount: int("view_count").notNull().default(0),
  isRevoked: bool("is_revoked").notNull().default(false),
  passwordHash: text("password_hash"),
  notifyOnView: bool("notify_on_view").notNull().default(false),
  createdAt: createdAt(),
}, (t) => [index("secure_links_file").on(t.fileId)]);

export const secureRequests = pgTable("secure_requests", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  folderId: int("folder_id").notNull().references(() => secureFolders.id, { onDelete: "cascade" }),
  code: text("code").notNull().unique(),
  title: text("title").notNull().default(""),
  expiresAt: ts("expires_at"),
  maxFiles: int("max_files"),
  filesReceived: int("files_received").notNull().default(0),
  isActive: bool("is_active").notNull().default(true),
  createdAt: createdAt(),
}, (t) => [index("secure_requests_user").on(t.userId), index("secure_requests_folder").on(t.folderId)]);
