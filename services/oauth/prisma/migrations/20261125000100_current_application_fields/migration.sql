-- AlterTable
ALTER TABLE "oauth"."application" ADD COLUMN     "cover_image_hash" TEXT,
ADD COLUMN     "custom_install_url" TEXT,
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "event_webhooks_enabled" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "icon_hash" TEXT,
ADD COLUMN     "install_params" JSONB,
ADD COLUMN     "integration_install_params" JSONB,
ADD COLUMN     "role_connections_verification_url" TEXT,
ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[];

