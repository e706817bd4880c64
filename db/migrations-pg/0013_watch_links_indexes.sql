CREATE INDEX CONCURRENTLY IF NOT EXISTS "tracker_matches_link" ON "tracker_matches" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tracker_matches_invite" ON "tracker_matches" USING btree ("invite_id");
