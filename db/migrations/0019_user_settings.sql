CREATE TABLE `user_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`time_zone` text DEFAULT 'UTC' NOT NULL,
	`report_every` text DEFAULT 'off' NOT NULL,
	`report_hour` integer DEFAULT 9 NOT NULL,
	`report_weekday` integer DEFAULT 1 NOT NULL,
	`report_sent_for` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_settings_report` ON `user_settings` (`report_every`);