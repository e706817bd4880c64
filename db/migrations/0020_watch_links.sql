ALTER TABLE `tracker_matches` ADD `link_id` integer;--> statement-breakpoint
ALTER TABLE `tracker_matches` ADD `invite_id` integer;--> statement-breakpoint
CREATE INDEX `tracker_matches_link` ON `tracker_matches` (`link_id`);--> statement-breakpoint
CREATE INDEX `tracker_matches_invite` ON `tracker_matches` (`invite_id`);--> statement-breakpoint
ALTER TABLE `trackers` ADD `watch_links` integer DEFAULT false NOT NULL;