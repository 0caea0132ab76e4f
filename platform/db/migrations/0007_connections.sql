CREATE TABLE "connection_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ok" boolean NOT NULL,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actor_id" text
);
--> statement-breakpoint
CREATE TABLE "connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"method" text NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sealed_secrets" text,
	"secret_hints" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text NOT NULL,
	"notifications" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"environment_id" uuid,
	"event" text NOT NULL,
	"message" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Links made before connections existed named no real connection: they cannot be kept.
DELETE FROM "observability_providers";--> statement-breakpoint
ALTER TABLE "observability_providers" ALTER COLUMN "connection_id" SET DATA TYPE uuid USING "connection_id"::uuid;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "cloud_connection_id" uuid;--> statement-breakpoint
ALTER TABLE "observability_providers" ADD COLUMN "last_forwarded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "observability_providers" ADD COLUMN "last_forward_error" text;--> statement-breakpoint
ALTER TABLE "observability_providers" ADD COLUMN "leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "aws_external_id" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "connection_checks" ADD CONSTRAINT "connection_checks_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_checks" ADD CONSTRAINT "connection_checks_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_checks_connection_at" ON "connection_checks" USING btree ("connection_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "connections_organization_name" ON "connections" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "connections_organization_kind" ON "connections" USING btree ("organization_id","kind");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due" ON "notification_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "notification_deliveries_connection_created" ON "notification_deliveries" USING btree ("connection_id","created_at");--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_cloud_connection_id_connections_id_fk" FOREIGN KEY ("cloud_connection_id") REFERENCES "public"."connections"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observability_providers" ADD CONSTRAINT "observability_providers_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE restrict ON UPDATE no action;