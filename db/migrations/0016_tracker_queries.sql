CREATE TABLE `tracker_seen_texts` (
	`tracker_id` integer NOT NULL,
	`text_hash` text NOT NULL,
	`seen_at` integer NOT NULL,
	FOREIGN KEY (`tracker_id`) REFERENCES `trackers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracker_seen_texts_key` ON `tracker_seen_texts` (`tracker_id`,`text_hash`);--> statement-breakpoint
CREATE INDEX `tracker_seen_texts_seen` ON `tracker_seen_texts` (`seen_at`);--> statement-breakpoint
ALTER TABLE `trackers` ADD `syntax` text DEFAULT 'plain' NOT NULL;--> statement-breakpoint
ALTER TABLE `trackers` ADD `word_forms` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `trackers` ADD `skip_reposts` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `trackers` ADD `notify_chat_id` text;--> statement-breakpoint
ALTER TABLE `trackers` ADD `notify_thread_id` integer;--> statement-breakpoint
ALTER TABLE `trackers` ADD `notify_every` text DEFAULT 'instant' NOT NULL;