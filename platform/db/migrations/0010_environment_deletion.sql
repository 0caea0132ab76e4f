ALTER TABLE "environments" ADD COLUMN "deletion_stage" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "deletion_message" text;