ALTER TABLE "preview_settings" ADD COLUMN "seed_command" text DEFAULT '' NOT NULL;
