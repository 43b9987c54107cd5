-- AlterTable
ALTER TABLE "permissions"."outbox" ADD COLUMN     "trace_context" JSONB;

