CREATE TABLE "budget_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"budget_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"month" date NOT NULL,
	"kind" text NOT NULL,
	"threshold" integer NOT NULL,
	"value" double precision NOT NULL,
	"budget_amount" double precision NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"environment_id" uuid,
	"amount" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_accrual" (
	"id" integer PRIMARY KEY NOT NULL,
	"accrued_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"resource_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"environment_id" uuid NOT NULL,
	"environment_name" text NOT NULL,
	"service_name" text NOT NULL,
	"service_type" text NOT NULL,
	"cloud_provider" text NOT NULL,
	"region" text NOT NULL,
	"cloud_account" text NOT NULL,
	"cost" double precision NOT NULL,
	"cumulative_cost" double precision DEFAULT 0 NOT NULL,
	"hours" double precision NOT NULL,
	"replica_hours" double precision NOT NULL,
	"cpu_hours" double precision NOT NULL,
	"memory_gb_hours" double precision NOT NULL,
	"cpu_used_hours" double precision NOT NULL,
	"memory_used_gb_hours" double precision NOT NULL,
	CONSTRAINT "usage_daily_day_resource_id_pk" PRIMARY KEY("day","resource_id")
);
--> statement-breakpoint
CREATE TABLE "usage_daily_totals" (
	"organization_id" text NOT NULL,
	"day" date NOT NULL,
	"environment_id" uuid NOT NULL,
	"environment_name" text NOT NULL,
	"service_type" text NOT NULL,
	"cost" double precision NOT NULL,
	CONSTRAINT "usage_daily_totals_organization_id_day_environment_id_service_type_pk" PRIMARY KEY("organization_id","day","environment_id","service_type")
);
--> statement-breakpoint
CREATE TABLE "usage_monthly" (
	"month" date NOT NULL,
	"resource_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"environment_id" uuid NOT NULL,
	"environment_name" text NOT NULL,
	"service_name" text NOT NULL,
	"service_type" text NOT NULL,
	"cost" double precision NOT NULL,
	"hours" double precision NOT NULL,
	CONSTRAINT "usage_monthly_month_resource_id_pk" PRIMARY KEY("month","resource_id")
);
--> statement-breakpoint
CREATE TABLE "usage_segments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"environment_id" uuid NOT NULL,
	"environment_name" text NOT NULL,
	"resource_id" uuid NOT NULL,
	"service_name" text NOT NULL,
	"service_type" text NOT NULL,
	"cloud_provider" text NOT NULL,
	"region" text NOT NULL,
	"cloud_account" text NOT NULL,
	"size" text NOT NULL,
	"replicas" integer NOT NULL,
	"cpu" double precision DEFAULT 0 NOT NULL,
	"memory_gb" double precision DEFAULT 0 NOT NULL,
	"cpu_used" double precision DEFAULT 0 NOT NULL,
	"memory_used_gb" double precision DEFAULT 0 NOT NULL,
	"monthly_cost" double precision NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "budget_alerts_once" ON "budget_alerts" USING btree ("budget_id","month","kind","threshold");--> statement-breakpoint
CREATE INDEX "budget_alerts_organization_at" ON "budget_alerts" USING btree ("organization_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_organization_scope" ON "budgets" USING btree ("organization_id",coalesce("environment_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "usage_daily_organization_day" ON "usage_daily" USING btree ("organization_id","day");--> statement-breakpoint
CREATE INDEX "usage_daily_resource_day" ON "usage_daily" USING btree ("resource_id","day");--> statement-breakpoint
CREATE INDEX "usage_monthly_organization_month" ON "usage_monthly" USING btree ("organization_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_segments_open_per_resource" ON "usage_segments" USING btree ("resource_id") WHERE "usage_segments"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "usage_segments_organization_started" ON "usage_segments" USING btree ("organization_id","started_at");--> statement-breakpoint
CREATE INDEX "usage_segments_ended" ON "usage_segments" USING btree ("ended_at");