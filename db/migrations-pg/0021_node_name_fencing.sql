ALTER TABLE "click_journal" ADD COLUMN "holder" text;--> statement-breakpoint
ALTER TABLE "click_journal" ADD COLUMN "generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "click_journal" ADD COLUMN "held_at" timestamp (3) with time zone;