ALTER TABLE "engine_jobs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "engine_jobs" ADD COLUMN "leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "resource_history" ADD COLUMN "message" text;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "cloud_state" jsonb;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "cloud_outputs" jsonb;