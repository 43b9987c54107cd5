-- DropIndex
DROP INDEX "registry"."outbox_published_at_created_at_idx";

-- AlterTable
ALTER TABLE "registry"."outbox" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "outbox_seq_key" ON "registry"."outbox"("seq");

-- CreateIndex
CREATE INDEX "outbox_published_at_seq_idx" ON "registry"."outbox"("published_at", "seq");

