CREATE TABLE `webhook_secrets` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`rotated_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `host` text;--> statement-breakpoint
CREATE INDEX `outbox_ref` ON `outbox` (`topic`,`ref_id`);