CREATE TABLE "cloud_connection_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"aws_account_id" text NOT NULL,
	"aws_region" text NOT NULL,
	"scanner" text NOT NULL,
	"external_id" text NOT NULL,
	"role_name" text NOT NULL,
	"trusted_account_id" text NOT NULL,
	"redirect_url" text NOT NULL,
	"status" text DEFAULT 'INITIATING' NOT NULL,
	"details" text,
	"archive_key" text,
	"download_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"initialized_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cloud_connection_jobs" ADD CONSTRAINT "cloud_connection_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_accounts" ADD CONSTRAINT "tool_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cloud_connection_jobs_user" ON "cloud_connection_jobs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "cloud_connection_jobs_status" ON "cloud_connection_jobs" USING btree ("status");