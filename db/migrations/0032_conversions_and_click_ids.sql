CREATE TABLE `conversions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`event` text NOT NULL,
	`click_id` text,
	`tg_user_id` integer,
	`link_id` integer,
	`placement_id` integer,
	`invite_id` integer,
	`value_micros` integer,
	`currency` text,
	`external_id` text,
	`occurred_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`placement_id`) REFERENCES `placements`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`invite_id`) REFERENCES `channel_invites`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversions_external` ON `conversions` (`user_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `conversions_user` ON `conversions` (`user_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `conversions_link` ON `conversions` (`link_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `conversions_invite` ON `conversions` (`invite_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `conversions_placement` ON `conversions` (`placement_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `postback_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `postback_keys_hash` ON `postback_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `postback_keys_user` ON `postback_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `postbacks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`url` text,
	`method` text DEFAULT 'GET' NOT NULL,
	`events` text NOT NULL,
	`link_id` integer,
	`placement_id` integer,
	`pixel_id` text,
	`access_token` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`placement_id`) REFERENCES `placements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `postbacks_user` ON `postbacks` (`user_id`);--> statement-breakpoint
ALTER TABLE `clicks` ADD `click_id` text;--> statement-breakpoint
ALTER TABLE `clicks` ADD `sub1` text;--> statement-breakpoint
ALTER TABLE `clicks` ADD `sub2` text;--> statement-breakpoint
ALTER TABLE `clicks` ADD `sub3` text;--> statement-breakpoint
ALTER TABLE `clicks` ADD `sub4` text;--> statement-breakpoint
ALTER TABLE `clicks` ADD `sub5` text;--> statement-breakpoint
ALTER TABLE `clicks` ADD `fbclid` text;--> statement-breakpoint
CREATE INDEX `clicks_click_id` ON `clicks` (`click_id`);--> statement-breakpoint
ALTER TABLE `links` ADD `click_postbacks` integer DEFAULT false NOT NULL;