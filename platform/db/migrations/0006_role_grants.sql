-- Each member's single role becomes an organization-wide grant before the column goes.
INSERT INTO "role_grants" ("organization_id", "user_id", "role") SELECT "organization_id", "user_id", "role_name" FROM "memberships";--> statement-breakpoint
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_role_name_roles_name_fk";
--> statement-breakpoint
ALTER TABLE "memberships" DROP COLUMN "role_name";--> statement-breakpoint
ALTER TABLE "roles" DROP COLUMN "can_write";