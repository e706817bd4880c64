DROP INDEX `channel_joins_invite`;--> statement-breakpoint
CREATE INDEX `channel_joins_invite` ON `channel_joins` (`invite_id`,`joined_at`,`left_at`);