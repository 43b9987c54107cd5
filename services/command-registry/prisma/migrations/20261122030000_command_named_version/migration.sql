-- AlterTable
-- Added nullable, backfilled, then made NOT NULL, so that it applies to a table with rows.
-- (No semicolons in these comments: the WebAssembly engine splits the script on them.)
ALTER TABLE "registry"."command" ADD COLUMN     "named_version" BIGINT;

-- Backfill: the command's first version (its id, which every insert gives as its version).
-- When the current name was set is not recorded, and the first version is a lower bound:
-- overwrites written before this migration stay visible exactly as before it. Backfilling
-- with `version` would hide for good the overwrites of every command edited (without a
-- rename) after they were written.
UPDATE "registry"."command" SET "named_version" = "id";

ALTER TABLE "registry"."command" ALTER COLUMN "named_version" SET NOT NULL;
