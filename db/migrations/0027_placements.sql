CREATE TABLE `placement_invites` (
	`invite_id` integer PRIMARY KEY NOT NULL,
	`placement_id` integer NOT NULL,
	FOREIGN KEY (`invite_id`) REFERENCES `channel_invites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`placement_id`) REFERENCES `placements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `placement_invites_placement` ON `placement_invites` (`placement_id`);--> statement-breakpoint
CREATE TABLE `placement_links` (
	`link_id` integer PRIMARY KEY NOT NULL,
	`placement_id` integer NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`placement_id`) REFERENCES `placements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `placement_links_placement` ON `placement_links` (`placement_id`);--> statement-breakpoint
CREATE TABLE `placement_views` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`placement_id` integer NOT NULL,
	`at` integer NOT NULL,
	`views` integer NOT NULL,
	`source` text NOT NULL,
	FOREIGN KEY (`placement_id`) REFERENCES `placements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `placement_views_placement` ON `placement_views` (`placement_id`,`at`);--> statement-breakpoint
CREATE TABLE `placements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`venue_kind` text NOT NULL,
	`venue` text NOT NULL,
	`publish_at` integer,
	`post_url` text,
	`post_found_at` integer,
	`cost` text,
	`notes` text,
	`views` integer,
	`views_at` integer,
	`views_next_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `placements_user` ON `placements` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `placements_views_next` ON `placements` (`views_next_at`);--> statement-breakpoint
ALTER TABLE `user_settings` ADD `currency` text;