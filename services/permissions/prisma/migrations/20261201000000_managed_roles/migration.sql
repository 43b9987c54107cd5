-- AlterTable
ALTER TABLE "permissions"."role" ADD COLUMN     "bot_id" BIGINT;

-- CreateIndex
CREATE UNIQUE INDEX "role_guild_id_bot_id_key" ON "permissions"."role"("guild_id", "bot_id");

