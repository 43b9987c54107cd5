-- AlterTable
ALTER TABLE "permissions"."member" ADD COLUMN     "bot" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "member_guild_id_bot_idx" ON "permissions"."member"("guild_id", "bot");


-- Bots installed before this column: those with a managed role are known as bots.
UPDATE "permissions"."member" AS m SET "bot" = true
WHERE EXISTS (SELECT 1 FROM "permissions"."role" AS r WHERE r."guild_id" = m."guild_id" AND r."bot_id" = m."user_id");
