-- AlterTable
ALTER TABLE "permissions"."guild" ADD COLUMN     "attachment_size_limit" BIGINT;
