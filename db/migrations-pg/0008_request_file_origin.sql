ALTER TABLE "secure_files" ADD COLUMN "request_id" bigint;--> statement-breakpoint
CREATE INDEX "secure_files_request" ON "secure_files" USING btree ("request_id");