CREATE TABLE `orphan_visit_days` (
	`user_id` integer NOT NULL,
	`code` text NOT NULL,
	`host` text DEFAULT '' NOT NULL,
	`day` integer NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `code`, `host`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `orphan_visit_days` (`user_id`, `code`, `host`, `day`, `visits`, `last_at`) SELECT `user_id`, `code`, coalesce(`host`, ''), (`visited_at` / 86400000) * 86400000, count(*), max(`visited_at`) FROM `orphan_visits` WHERE `user_id` IS NOT NULL GROUP BY `user_id`, `code`, coalesce(`host`, ''), (`visited_at` / 86400000);--> statement-breakpoint
DROP TABLE `orphan_visits`;