CREATE TABLE "tracker_seen_texts" (
	"tracker_id" bigint NOT NULL,
	"text_hash" text NOT NULL,
	"seen_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "syntax" text DEFAULT 'plain' NOT NULL;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "word_forms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "skip_reposts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "notify_chat_id" text;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "notify_thread_id" bigint;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "notify_every" text DEFAULT 'instant' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracker_seen_texts" ADD CONSTRAINT "tracker_seen_texts_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_seen_texts_key" ON "tracker_seen_texts" USING btree ("tracker_id","text_hash");--> statement-breakpoint
CREATE INDEX "tracker_seen_texts_seen" ON "tracker_seen_texts" USING btree ("seen_at");