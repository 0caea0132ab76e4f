CREATE TABLE "onboarding_states" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"outcome" text,
	"ended_by" text,
	CONSTRAINT "onboarding_states_outcome" CHECK ("onboarding_states"."outcome" in ('finished', 'dismissed')),
	CONSTRAINT "onboarding_states_ended" CHECK (("onboarding_states"."ended_at" is null) = ("onboarding_states"."outcome" is null))
);
--> statement-breakpoint
ALTER TABLE "onboarding_states" ADD CONSTRAINT "onboarding_states_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_states" ADD CONSTRAINT "onboarding_states_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;