-- AlterTable
-- The daily create quota counts per window (a UTC day unless COMMAND_CREATES_WINDOW_SECONDS
-- says otherwise) instead of per date. Renamed and converted in place rather than dropped and
-- added, so that today's counts survive the migration: a date becomes its UTC midnight.
-- (No semicolons in these comments: the WebAssembly engine splits the script on them.)
ALTER TABLE "registry"."daily_creates" RENAME COLUMN "day" TO "window_start";

ALTER TABLE "registry"."daily_creates" ALTER COLUMN "window_start" TYPE TIMESTAMPTZ(3) USING ("window_start"::timestamp AT TIME ZONE 'UTC');
