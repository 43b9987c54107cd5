-- AlterTable
ALTER TABLE "permissions"."guild" ADD COLUMN     "preferred_locale" TEXT NOT NULL DEFAULT 'en-US';

-- CreateTable
CREATE TABLE "permissions"."dm_channel" (
    "id" BIGINT NOT NULL,
    "type" INTEGER NOT NULL,
    "owner_id" BIGINT,
    "user_low" BIGINT,
    "user_high" BIGINT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dm_channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "permissions"."dm_recipient" (
    "channel_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,

    CONSTRAINT "dm_recipient_pkey" PRIMARY KEY ("channel_id","user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dm_channel_user_low_user_high_key" ON "permissions"."dm_channel"("user_low", "user_high");

-- CreateIndex
CREATE INDEX "dm_recipient_user_id_idx" ON "permissions"."dm_recipient"("user_id");

-- AddForeignKey
ALTER TABLE "permissions"."dm_recipient" ADD CONSTRAINT "dm_recipient_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "permissions"."dm_channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

