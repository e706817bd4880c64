CREATE TABLE `link_stats_dim` (
	`link_id` integer NOT NULL,
	`span` integer NOT NULL,
	`dim` text NOT NULL,
	`bucket` integer NOT NULL,
	`value` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `span`, `dim`, `bucket`, `value`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `link_stats_time` (
	`link_id` integer NOT NULL,
	`span` integer NOT NULL,
	`bucket` integer NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`uniques` integer DEFAULT 0 NOT NULL,
	`bots` integer DEFAULT 0 NOT NULL,
	`q0` integer DEFAULT 0 NOT NULL,
	`q1` integer DEFAULT 0 NOT NULL,
	`q2` integer DEFAULT 0 NOT NULL,
	`q3` integer DEFAULT 0 NOT NULL,
	`u0` integer DEFAULT 0 NOT NULL,
	`u1` integer DEFAULT 0 NOT NULL,
	`u2` integer DEFAULT 0 NOT NULL,
	`u3` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `span`, `bucket`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
