-- AlterTable
ALTER TABLE "oauth"."application" ADD COLUMN     "event_webhooks_disabled_at" TIMESTAMPTZ(3);

