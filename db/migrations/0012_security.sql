CREATE TABLE `email_code_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`failed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `email_code_failures_email` ON `email_code_failures` (`email`,`failed_at`);--> statement-breakpoint
CREATE TABLE `revoked_sessions` (
	`session_id` text PRIMARY KEY NOT NULL,
	`revoked_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
DROP INDEX `domains_hostname_unique`;--> statement-breakpoint
ALTER TABLE `domains` ADD `verification_token` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `domains` ADD `verified_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `domains_user_hostname` ON `domains` (`user_id`,`hostname`);--> statement-breakpoint
CREATE UNIQUE INDEX `domains_verified_hostname` ON `domains` (`hostname`) WHERE "domains"."verified_at" is not null;