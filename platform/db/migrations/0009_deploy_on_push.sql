CREATE TABLE "deploy_hooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"resource_id" uuid NOT NULL,
	"enabled" boolean NOT NULL,
	"sealed_secret" text NOT NULL,
	"secret_created_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deploy_hooks_resource" UNIQUE("resource_id")
);
--> statement-breakpoint
CREATE TABLE "deploy_pushes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"resource_id" uuid NOT NULL,
	"delivery_id" text NOT NULL,
	"branch" text NOT NULL,
	"sha" text NOT NULL,
	"message" text NOT NULL,
	"author" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"history_id" uuid
);
--> statement-breakpoint
ALTER TABLE "deploy_hooks" ADD CONSTRAINT "deploy_hooks_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_pushes" ADD CONSTRAINT "deploy_pushes_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_pushes" ADD CONSTRAINT "deploy_pushes_history_id_resource_history_id_fk" FOREIGN KEY ("history_id") REFERENCES "public"."resource_history"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_pushes_resource_delivery" ON "deploy_pushes" USING btree ("resource_id","delivery_id");--> statement-breakpoint
CREATE INDEX "deploy_pushes_resource_received" ON "deploy_pushes" USING btree ("resource_id","received_at");--> statement-breakpoint
CREATE INDEX "deploy_pushes_history" ON "deploy_pushes" USING btree ("history_id");