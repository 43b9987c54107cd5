-- Channel messages (POST /channels/{id}/messages): a user's message belongs to no application,
-- and no attachment of a channel message belongs to an interaction.
ALTER TABLE "interactions"."message" ALTER COLUMN "application_id" DROP NOT NULL;
ALTER TABLE "interactions"."attachment" ALTER COLUMN "interaction_id" DROP NOT NULL;

-- Who wrote a channel message, and the nonce it was sent with (enforce_nonce looks it up).
ALTER TABLE "interactions"."message" ADD COLUMN "author_id" BIGINT;
ALTER TABLE "interactions"."message" ADD COLUMN "nonce" TEXT;

-- CreateIndex
CREATE INDEX "message_author_id_nonce_idx" ON "interactions"."message"("author_id", "nonce");
