ALTER TABLE `secure_files` ADD `request_id` integer;--> statement-breakpoint
CREATE INDEX `secure_files_request` ON `secure_files` (`request_id`);