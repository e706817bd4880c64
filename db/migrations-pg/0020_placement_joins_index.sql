DROP INDEX "channel_joins_invite";--> statement-breakpoint
CREATE INDEX "channel_joins_invite" ON "channel_joins" USING btree ("invite_id","joined_at","left_at");