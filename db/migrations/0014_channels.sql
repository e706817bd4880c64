CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`chat_id` text NOT NULL,
	`type` text NOT NULL,
	`title` text,
	`username` text,
	`members` integer,
	`can_invite` integer DEFAULT false NOT NULL,
	`bot_is_admin` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_user_chat` ON `channels` (`user_id`,`chat_id`);--> statement-breakpoint
CREATE INDEX `channels_chat` ON `channels` (`chat_id`);