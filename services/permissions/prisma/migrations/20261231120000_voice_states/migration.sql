-- AlterTable
ALTER TABLE "permissions"."channel" ADD COLUMN     "voice_start_time" TIMESTAMPTZ(3),
ADD COLUMN     "voice_status" TEXT;

-- CreateTable
CREATE TABLE "permissions"."voice_state" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "session_id" TEXT NOT NULL,
    "self_mute" BOOLEAN NOT NULL,
    "self_deaf" BOOLEAN NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "voice_state_pkey" PRIMARY KEY ("guild_id","user_id")
);

-- CreateIndex
CREATE INDEX "voice_state_channel_id_idx" ON "permissions"."voice_state"("channel_id");

-- AddForeignKey
ALTER TABLE "permissions"."voice_state" ADD CONSTRAINT "voice_state_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "permissions"."channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- AddForeignKey
ALTER TABLE "permissions"."voice_state" ADD CONSTRAINT "voice_state_guild_id_user_id_fkey" FOREIGN KEY ("guild_id", "user_id") REFERENCES "permissions"."member"("guild_id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;
