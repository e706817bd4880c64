CREATE TABLE "click_journal" (
	"journal" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL
);
