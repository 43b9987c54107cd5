-- CreateTable
CREATE TABLE "interactions"."attachment" (
    "id" BIGINT NOT NULL,
    "message_id" BIGINT NOT NULL,
    "interaction_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "blob_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attachment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "attachment_blob_key_key" ON "interactions"."attachment"("blob_key");

-- CreateIndex
CREATE INDEX "attachment_message_id_idx" ON "interactions"."attachment"("message_id");
