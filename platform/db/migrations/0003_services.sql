CREATE TABLE "chart_repositories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "observability_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_id" uuid NOT NULL,
	"connection_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"resource_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text,
	"finished_at" timestamp with time zone,
	"pod_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"diff" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"resource_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"pod_name" text NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_id" uuid NOT NULL,
	"name" text NOT NULL,
	"service_type" text NOT NULL,
	"stage" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"config" jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"draft" jsonb,
	"retries" integer DEFAULT 0 NOT NULL,
	"message" text,
	"monthly_cost_cents" integer DEFAULT 0 NOT NULL,
	"endpoint" text,
	"pods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sealed_attributes" text,
	"logs_written_until" timestamp with time zone,
	"deployed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "serverless_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chart_repositories" ADD CONSTRAINT "chart_repositories_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observability_providers" ADD CONSTRAINT "observability_providers_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_history" ADD CONSTRAINT "resource_history_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_logs" ADD CONSTRAINT "resource_logs_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "serverless_uploads" ADD CONSTRAINT "serverless_uploads_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chart_repositories_environment_name" ON "chart_repositories" USING btree ("environment_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "observability_providers_environment_connection" ON "observability_providers" USING btree ("environment_id","connection_id");--> statement-breakpoint
CREATE INDEX "resource_history_resource" ON "resource_history" USING btree ("resource_id","at");--> statement-breakpoint
CREATE INDEX "resource_logs_resource_id" ON "resource_logs" USING btree ("resource_id","id");--> statement-breakpoint
CREATE INDEX "resource_logs_resource_at" ON "resource_logs" USING btree ("resource_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "resources_environment_name" ON "resources" USING btree ("environment_id","name");--> statement-breakpoint
CREATE INDEX "resources_environment_type" ON "resources" USING btree ("environment_id","service_type");--> statement-breakpoint
CREATE INDEX "resources_environment_created" ON "resources" USING btree ("environment_id","created_at");--> statement-breakpoint
CREATE INDEX "serverless_uploads_environment" ON "serverless_uploads" USING btree ("environment_id");