CREATE TABLE "resource_usage_samples" (
	"resource_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"cpu_percent" double precision NOT NULL,
	"memory_percent" double precision NOT NULL,
	CONSTRAINT "resource_usage_samples_resource_id_at_pk" PRIMARY KEY("resource_id","at")
);
--> statement-breakpoint
ALTER TABLE "resource_usage_samples" ADD CONSTRAINT "resource_usage_samples_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;