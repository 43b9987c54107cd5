-- AlterTable
ALTER TABLE "dispatcher"."gateway_identify" ADD COLUMN     "rate_limit_key" INTEGER NOT NULL DEFAULT 0;

