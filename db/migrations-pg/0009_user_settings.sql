CREATE TABLE "user_settings" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"report_every" text DEFAULT 'off' NOT NULL,
	"report_hour" bigint DEFAULT 9 NOT NULL,
	"report_weekday" bigint DEFAULT 1 NOT NULL,
	"report_sent_for" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_settings_report" ON "user_settings" USING btree ("report_every");