CREATE TABLE "orphan_visit_days" (
	"user_id" bigint NOT NULL,
	"code" text NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"visits" bigint DEFAULT 0 NOT NULL,
	"last_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "orphan_visit_days_user_id_day_code_host_pk" PRIMARY KEY("user_id","day","code","host")
);
--> statement-breakpoint
INSERT INTO "orphan_visit_days" ("user_id", "code", "host", "day", "visits", "last_at") SELECT "user_id", "code", coalesce("host", ''), date_trunc('day', "visited_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*), max("visited_at") FROM "orphan_visits" WHERE "user_id" IS NOT NULL GROUP BY 1, 2, 3, 4;--> statement-breakpoint
DROP TABLE "orphan_visits" CASCADE;--> statement-breakpoint
ALTER TABLE "orphan_visit_days" ADD CONSTRAINT "orphan_visit_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;