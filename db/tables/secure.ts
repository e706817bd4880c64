import type { Kit } from "../kit";
import type { accountTables } from "./accounts";

export function secureTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  const secureFolders = k.table(
    "secure_folders",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      description: k.text("description"),
      isPaused: k.bool("is_paused").notNull().default(false),
      createdAt: k.createdAt(),
      updatedAt: k
        .ts("updated_at")
        .notNull()
        .$defaultFn(() => new Date()),
    },
    (t) => [k.index("secure_folders_user").on(t.userId)],
  );

  const secureFiles = k.table(
    "secure_files",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      folderId: k
        .int("folder_id")
        .notNull()
        .references(() => secureFolders.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      description: k.text("description"),
      contentType: k.text("content_type", { enum: ["text", "image", "video", "audio", "file"] }).notNull(),
      textContent: k.text("text_content"),
      mimeType: k.text("mime_type"),
      fileName: k.text("file_name"),
      fileSize: k.int("file_size"),
      /** path relative to DATA_DIR of the stored bytes */
      storagePath: k.text("storage_path"),
      /** the request link it came through, if any: what a request link received counts against its own cap */
      requestId: k.int("request_id"),
      createdAt: k.createdAt(),
    },
    (t) => [
      k.index("secure_files_folder").on(t.folderId),
      k.index("secure_files_user").on(t.userId),
      k.index("secure_files_request").on(t.requestId),
    ],
  );

  const secureLinks = k.table(
    "secure_links",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      fileId: k
        .int("file_id")
        .notNull()
        .references(() => secureFiles.id, { onDelete: "cascade" }),
      code: k.text("code").notNull().unique(),
      expiresAt: k.ts("expires_at").notNull(),
      maxViews: k.int("max_views"),
      viewCount: k.int("view_count").notNull().default(0),
      isRevoked: k.bool("is_revoked").notNull().default(false),
      /** argon2id hash of the optional share password; null: no password */
      passwordHash: k.text("password_hash"),
      /** send the owner a bot message for each counted view */
      notifyOnView: k.bool("notify_on_view").notNull().default(false),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("secure_links_file").on(t.fileId)],
  );

  /** Request links: anyone with SHORT_URL/r/<code> may upload files or texts into the owner's folder. */
  const secureRequests = k.table(
    "secure_requests",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      folderId: k
        .int("folder_id")
        .notNull()
        .references(() => secureFolders.id, { onDelete: "cascade" }),
      code: k.text("code").notNull().unique(),
      title: k.text("title").notNull().default(""),
      /** null: never expires */
      expiresAt: k.ts("expires_at"),
      /** null: no maximum */
      maxFiles: k.int("max_files"),
      filesReceived: k.int("files_received").notNull().default(0),
      isActive: k.bool("is_active").notNull().default(true),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("secure_requests_user").on(t.userId), k.index("secure_requests_folder").on(t.folderId)],
  );
  return { secureFolders, secureFiles, secureLinks, secureRequests };
}
