ALTER TABLE `tracker_matches` ADD `notify_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `tracker_matches_post` ON `tracker_matches` (`source_chat_id`,`source_message_id`);--> statement-breakpoint
CREATE INDEX `tracker_matches_pending` ON `tracker_matches` (`notify_pending`);