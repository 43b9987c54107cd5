-- DropIndex
DROP INDEX "permissions"."outbox_published_at_created_at_idx";

-- AlterTable
ALTER TABLE "permissions"."outbox" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "outbox_seq_key" ON "permissions"."outbox"("seq");

-- CreateIndex
CREATE INDEX "outbox_published_at_seq_idx" ON "permissions"."outbox"("published_at", "seq");

