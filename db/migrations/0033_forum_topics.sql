CREATE TABLE `forum_topics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`chat_id` text NOT NULL,
	`thread_id` integer NOT NULL,
	`name` text NOT NULL,
	`is_closed` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `forum_topics_user_chat_thread` ON `forum_topics` (`user_id`,`chat_id`,`thread_id`);--> statement-breakpoint
CREATE INDEX `forum_topics_chat` ON `forum_topics` (`chat_id`);