CREATE TABLE `user_agents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ua` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_agents_ua_unique` ON `user_agents` (`ua`);--> statement-breakpoint
ALTER TABLE `clicks` ADD `ua_id` integer REFERENCES user_agents(id);