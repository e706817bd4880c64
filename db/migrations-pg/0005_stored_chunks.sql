CREATE TABLE "stored_chunks" (
	"key" text NOT NULL,
	"idx" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "stored_chunks_key_idx_pk" PRIMARY KEY("key","idx")
);
