CREATE TABLE `secure_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`folder_id` integer NOT NULL,
	`code` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`expires_at` integer,
	`max_files` integer,
	`files_received` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `secure_folders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secure_requests_code_unique` ON `secure_requests` (`code`);--> statement-breakpoint
CREATE INDEX `secure_requests_user` ON `secure_requests` (`user_id`);--> statement-breakpoint
CREATE INDEX `secure_requests_folder` ON `secure_requests` (`folder_id`);--> statement-breakpoint
ALTER TABLE `secure_links` ADD `password_hash` text;--> statement-breakpoint
ALTER TABLE `secure_links` ADD `notify_on_view` integer DEFAULT false NOT NULL;