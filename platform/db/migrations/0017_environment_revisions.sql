CREATE TABLE "environment_revisions" (
	"environment_id" uuid PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environment_revisions" ADD CONSTRAINT "environment_revisions_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Decision 065: every change to what an environment's services show bumps its revision, once per changed row, at
-- commit (deferred), so the bump takes its lock last and an uncommitted change is never announced. An environment
-- deleted in the same transaction gets no row back (the insert selects from environments).
CREATE FUNCTION "bump_environment_revision"("changed" uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "environment_revisions" ("environment_id", "revision")
  SELECT "id", 1 FROM "environments" WHERE "id" = "changed"
  ON CONFLICT ("environment_id") DO UPDATE SET "revision" = "environment_revisions"."revision" + 1
$$;
--> statement-breakpoint
CREATE FUNCTION "environment_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- NEW is null in a DELETE and OLD in an INSERT; a null environment bumps nothing.
  IF TG_TABLE_NAME = 'environments' THEN
    PERFORM "bump_environment_revision"(NEW."id");
  ELSIF TG_TABLE_NAME = 'resource_history' THEN
    PERFORM "bump_environment_revision"((SELECT "environment_id" FROM "resources" WHERE "id" = COALESCE(NEW."resource_id", OLD."resource_id")));
  ELSE
    PERFORM "bump_environment_revision"(COALESCE(NEW."environment_id", OLD."environment_id"));
    IF TG_OP = 'UPDATE' AND OLD."environment_id" IS DISTINCT FROM NEW."environment_id" THEN
      PERFORM "bump_environment_revision"(OLD."environment_id");
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "environments_revision" AFTER UPDATE ON "environments" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "environment_row_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "resources_revision" AFTER INSERT OR UPDATE OR DELETE ON "resources" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "environment_row_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "resource_history_revision" AFTER INSERT OR UPDATE OR DELETE ON "resource_history" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "environment_row_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "engine_jobs_revision" AFTER INSERT OR UPDATE OR DELETE ON "engine_jobs" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "environment_row_changed"();
