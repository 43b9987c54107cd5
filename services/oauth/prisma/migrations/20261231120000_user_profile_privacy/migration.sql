-- AlterTable
ALTER TABLE "oauth"."user" ADD COLUMN     "primary_guild" JSONB,
ADD COLUMN     "profile_privacy" TEXT NOT NULL DEFAULT 'everyone';
