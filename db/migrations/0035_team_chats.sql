CREATE TABLE `team_chats` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`thread_id` integer,
	`title` text,
	`language` text NOT NULL,
	`connected_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connected_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
