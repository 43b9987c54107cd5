-- AlterTable
ALTER TABLE "oauth"."outbox" ADD COLUMN     "trace_context" JSONB;

