-- AlterTable
ALTER TABLE "permissions"."dm_channel" ADD COLUMN     "application_id" BIGINT;
