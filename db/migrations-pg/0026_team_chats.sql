CREATE TABLE "team_chats" (
	"workspace_id" bigint PRIMARY KEY NOT NULL,
	"chat_id" text NOT NULL,
	"thread_id" bigint,
	"title" text,
	"language" text NOT NULL,
	"connected_by" bigint,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "team_chats" ADD CONSTRAINT "team_chats_workspace_id_users_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_chats" ADD CONSTRAINT "team_chats_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;