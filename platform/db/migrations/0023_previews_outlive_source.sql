-- Decision 075: a preview outlives its source environment, so deleting the source tears the preview down and still
-- tells GitHub: the source's name, the repository and the connection are kept on the preview.
ALTER TABLE "previews" ADD COLUMN "source_environment_name" text;--> statement-breakpoint
ALTER TABLE "previews" ADD COLUMN "repository" text;--> statement-breakpoint
ALTER TABLE "previews" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
UPDATE "previews" SET "source_environment_name" = "environments"."name" FROM "environments" WHERE "environments"."id" = "previews"."source_environment_id";--> statement-breakpoint
UPDATE "previews" SET "repository" = "preview_settings"."repository", "connection_id" = "preview_settings"."connection_id" FROM "preview_settings" WHERE "preview_settings"."environment_id" = "previews"."source_environment_id";--> statement-breakpoint
ALTER TABLE "previews" ALTER COLUMN "source_environment_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "previews" ALTER COLUMN "repository" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "previews" ALTER COLUMN "connection_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "previews" ALTER COLUMN "source_environment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "previews" DROP CONSTRAINT "previews_source_environment_id_environments_id_fk";--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_source_environment_id_environments_id_fk" FOREIGN KEY ("source_environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;
