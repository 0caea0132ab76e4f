CREATE TABLE "invitation_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"email" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deploy_pushes" ADD COLUMN "committed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "invitation_sends_organization_sent" ON "invitation_sends" USING btree ("organization_id","sent_at");--> statement-breakpoint
CREATE INDEX "invitation_sends_email_sent" ON "invitation_sends" USING btree ("email","sent_at");