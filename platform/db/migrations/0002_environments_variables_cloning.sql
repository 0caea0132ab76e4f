CREATE TABLE "engine_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"environment_id" uuid,
	"state" text NOT NULL,
	"status" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"details" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "environment_variables" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"name" text NOT NULL,
	"secret" boolean NOT NULL,
	"value" text,
	"encrypted_value" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "environment_variables_value_by_kind" CHECK (("environment_variables"."secret" and "environment_variables"."value" is null and "environment_variables"."encrypted_value" is not null) or (not "environment_variables"."secret" and "environment_variables"."value" is not null and "environment_variables"."encrypted_value" is null))
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "cloud_provider" text DEFAULT 'AWS' NOT NULL;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "region" text DEFAULT 'us-east-1' NOT NULL;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "config" jsonb;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "enabled_addons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "cloned_from_id" uuid;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "cloned_from_name" text;--> statement-breakpoint
ALTER TABLE "engine_jobs" ADD CONSTRAINT "engine_jobs_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environment_variables" ADD CONSTRAINT "environment_variables_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "engine_jobs_due" ON "engine_jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "engine_jobs_environment" ON "engine_jobs" USING btree ("environment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "environment_variables_environment_name" ON "environment_variables" USING btree ("environment_id","name");--> statement-breakpoint
CREATE INDEX "environments_cloned_from" ON "environments" USING btree ("cloned_from_id");