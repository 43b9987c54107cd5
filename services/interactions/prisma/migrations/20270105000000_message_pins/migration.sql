-- Pins (PUT / DELETE /channels/{id}/messages/pins/{id}): when a message was pinned, null when it is not.
ALTER TABLE "interactions"."message" ADD COLUMN     "pinned_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "message_channel_id_pinned_at_idx" ON "interactions"."message"("channel_id", "pinned_at");
