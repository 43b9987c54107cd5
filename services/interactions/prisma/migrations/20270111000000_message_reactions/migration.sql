-- Reactions to messages (PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me): one row per
-- user, emoji and message. The message body keeps the counts (`reactions`).
CREATE TABLE "interactions"."reaction" (
    "message_id" BIGINT NOT NULL,
    "emoji" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reaction_pkey" PRIMARY KEY ("message_id","emoji","user_id")
);

-- CreateIndex
CREATE INDEX "reaction_user_id_message_id_idx" ON "interactions"."reaction"("user_id", "message_id");
