ALTER TABLE `click_journal` ADD `holder` text;--> statement-breakpoint
ALTER TABLE `click_journal` ADD `generation` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `click_journal` ADD `held_at` integer;