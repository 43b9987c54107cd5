-- AlterTable: when a member's timeout ends (Modify Guild Member, AutoMod TIMEOUT).
-- Null when never timed out or lifted. A past end is kept, as Discord keeps it.
ALTER TABLE "permissions"."member" ADD COLUMN     "communication_disabled_until" TIMESTAMPTZ(3);
