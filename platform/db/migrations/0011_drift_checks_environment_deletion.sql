ALTER TABLE "environments" ADD COLUMN "deletion_stage" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "deletion_message" text;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "drift_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "drifted_at" timestamp with time zone;