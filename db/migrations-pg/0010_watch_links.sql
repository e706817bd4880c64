ALTER TABLE "tracker_matches" ADD COLUMN "link_id" bigint;--> statement-breakpoint
ALTER TABLE "tracker_matches" ADD COLUMN "invite_id" bigint;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "watch_links" boolean DEFAULT false NOT NULL;
