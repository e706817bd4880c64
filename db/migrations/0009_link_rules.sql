CREATE TABLE `link_tombstones` (
	`code` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`deleted_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `orphan_visits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`code` text NOT NULL,
	`host` text,
	`visited_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `orphan_visits_user_time` ON `orphan_visits` (`user_id`,`visited_at`);--> statement-breakpoint
ALTER TABLE `clicks` ADD `rule` integer;--> statement-breakpoint
ALTER TABLE `clicks` ADD `variant` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `rules` text;--> statement-breakpoint
ALTER TABLE `links` ADD `variants` text;