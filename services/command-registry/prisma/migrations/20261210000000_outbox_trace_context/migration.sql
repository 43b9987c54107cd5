-- AlterTable
ALTER TABLE "registry"."outbox" ADD COLUMN     "trace_context" JSONB;

