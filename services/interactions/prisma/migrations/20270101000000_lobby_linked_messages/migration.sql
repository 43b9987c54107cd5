-- A message of a linked lobby, posted to its channel, belongs to no interaction.
ALTER TABLE "interactions"."message" ALTER COLUMN "interaction_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "interactions"."message" ADD COLUMN "lobby_message_id" BIGINT;

-- CreateIndex
CREATE UNIQUE INDEX "message_lobby_message_id_key" ON "interactions"."message"("lobby_message_id");
