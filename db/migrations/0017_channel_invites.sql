CREATE TABLE `channel_chat_counts` (
	`chat_id` text PRIMARY KEY NOT NULL,
	`joins` integer DEFAULT 0 NOT NULL,
	`leaves` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `channel_invites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`chat_id` text NOT NULL,
	`name` text NOT NULL,
	`invite_link` text NOT NULL,
	`join_request` integer DEFAULT false NOT NULL,
	`approve` text DEFAULT 'auto' NOT NULL,
	`welcome` text,
	`expires_at` integer,
	`member_limit` integer,
	`cost` text,
	`link_id` integer,
	`is_revoked` integer DEFAULT false NOT NULL,
	`joins` integer DEFAULT 0 NOT NULL,
	`leaves` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_invites_link` ON `channel_invites` (`invite_link`);--> statement-breakpoint
CREATE INDEX `channel_invites_channel` ON `channel_invites` (`channel_id`);--> statement-breakpoint
CREATE INDEX `channel_invites_user` ON `channel_invites` (`user_id`);--> statement-breakpoint
CREATE INDEX `channel_invites_chat` ON `channel_invites` (`chat_id`);--> statement-breakpoint
CREATE TABLE `channel_join_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chat_id` text NOT NULL,
	`invite_id` integer NOT NULL,
	`member_id` integer NOT NULL,
	`user_chat_id` integer NOT NULL,
	`username` text,
	`first_name` text,
	`requested_at` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`settled_at` integer,
	FOREIGN KEY (`invite_id`) REFERENCES `channel_invites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_join_requests_once` ON `channel_join_requests` (`chat_id`,`member_id`,`requested_at`);--> statement-breakpoint
CREATE INDEX `channel_join_requests_invite` ON `channel_join_requests` (`invite_id`,`status`);--> statement-breakpoint
CREATE TABLE `channel_joins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chat_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`username` text,
	`first_name` text,
	`invite_id` integer,
	`via` text NOT NULL,
	`via_join_request` integer DEFAULT false NOT NULL,
	`joined_at` integer,
	`left_at` integer,
	FOREIGN KEY (`invite_id`) REFERENCES `channel_invites`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `channel_joins_chat_joined` ON `channel_joins` (`chat_id`,`joined_at`);--> statement-breakpoint
CREATE INDEX `channel_joins_member` ON `channel_joins` (`chat_id`,`member_id`,`joined_at`);--> statement-breakpoint
CREATE INDEX `channel_joins_invite` ON `channel_joins` (`invite_id`,`joined_at`);--> statement-breakpoint
CREATE TABLE `channel_member_updates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chat_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`status` text NOT NULL,
	`date` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_member_updates_change` ON `channel_member_updates` (`chat_id`,`member_id`,`status`,`date`);