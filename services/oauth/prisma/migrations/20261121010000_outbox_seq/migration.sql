-- DropIndex
DROP INDEX "oauth"."outbox_published_at_created_at_idx";

-- AlterTable
ALTER TABLE "oauth"."outbox" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "outbox_seq_key" ON "oauth"."outbox"("seq");

-- CreateIndex
CREATE INDEX "outbox_published_at_seq_idx" ON "oauth"."outbox"("published_at", "seq");

