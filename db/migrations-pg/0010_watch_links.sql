ALTER TABLE "tracker_matches" ADD COLUMN "link_id" bigint;--> statement-breakpoint
ALTER TABLE "tracker_matches" ADD COLUMN "invite_id" bigint;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "watch_links" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "tracker_matches_link" ON "tracker_matches" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "tracker_matches_invite" ON "tracker_matches" USING btree ("invite_id");