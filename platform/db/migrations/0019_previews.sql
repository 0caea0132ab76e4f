CREATE TABLE "preview_deliveries" (
	"webhook_id" uuid NOT NULL,
	"delivery_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "preview_deliveries_webhook_id_delivery_id_pk" PRIMARY KEY("webhook_id","delivery_id")
);
--> statement-breakpoint
CREATE TABLE "preview_settings" (
	"environment_id" uuid PRIMARY KEY NOT NULL,
	"webhook_id" uuid NOT NULL,
	"enabled" boolean NOT NULL,
	"connection_id" uuid NOT NULL,
	"repository" text NOT NULL,
	"application_ids" jsonb NOT NULL,
	"name_pattern" text NOT NULL,
	"max_previews" integer NOT NULL,
	"idle_days" integer NOT NULL,
	"sealed_secret" text NOT NULL,
	"secret_created_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "preview_settings_webhook" UNIQUE("webhook_id")
);
--> statement-breakpoint
CREATE TABLE "previews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source_environment_id" uuid NOT NULL,
	"environment_id" uuid,
	"environment_name" text NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"author" text NOT NULL,
	"url" text NOT NULL,
	"head_branch" text NOT NULL,
	"head_sha" text NOT NULL,
	"state" text NOT NULL,
	"message" text,
	"comment_id" bigint,
	"deployment_id" bigint,
	"last_activity_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "previews_environment" UNIQUE("environment_id")
);
--> statement-breakpoint
ALTER TABLE "preview_deliveries" ADD CONSTRAINT "preview_deliveries_webhook_id_preview_settings_webhook_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."preview_settings"("webhook_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_settings" ADD CONSTRAINT "preview_settings_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_tenant_id_organizations_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organizations"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_source_environment_id_environments_id_fk" FOREIGN KEY ("source_environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "previews_source_number" ON "previews" USING btree ("source_environment_id","number");