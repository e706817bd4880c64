PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_clicks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`link_id` integer NOT NULL,
	`clicked_at` integer NOT NULL,
	`ip` text,
	`country` text,
	`city` text,
	`device` text,
	`browser` text,
	`os` text,
	`referer` text,
	`ua_id` integer,
	`is_bot` integer DEFAULT false NOT NULL,
	`bot_name` text,
	`is_unique` integer DEFAULT false NOT NULL,
	`rule` integer,
	`variant` integer,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- the new table continues the old one's ids (AUTOINCREMENT never reuses one, even a deleted click's)
INSERT INTO sqlite_sequence (name, seq) SELECT '__new_clicks', seq FROM sqlite_sequence WHERE name = 'clicks';--> statement-breakpoint
INSERT INTO `__new_clicks`("id", "link_id", "clicked_at", "ip", "country", "city", "device", "browser", "os", "referer", "ua_id", "is_bot", "bot_name", "is_unique", "rule", "variant") SELECT "id", "link_id", "clicked_at", "ip", "country", "city", "device", "browser", "os", "referer", "ua_id", "is_bot", "bot_name", "is_unique", "rule", "variant" FROM `clicks`;--> statement-breakpoint
DROP TABLE `clicks`;--> statement-breakpoint
ALTER TABLE `__new_clicks` RENAME TO `clicks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `clicks_link_time` ON `clicks` (`link_id`,`clicked_at`);