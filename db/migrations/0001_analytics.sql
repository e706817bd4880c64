CREATE TABLE `link_stats_dim` (
	`link_id` integer NOT NULL,
	`grain` text NOT NULL,
	`dim` text NOT NULL,
	`bucket` integer NOT NULL,
	`value` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `grain`, `dim`, `bucket`, `value`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `link_stats_quarter` (
	`link_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`uniques` integer DEFAULT 0 NOT NULL,
	`bots` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `bucket`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
