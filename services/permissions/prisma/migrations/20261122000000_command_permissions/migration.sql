-- CreateTable
CREATE TABLE "permissions"."command_permissions" (
    "guild_id" BIGINT NOT NULL,
    "command_id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "command_name" TEXT,
    "command_version" BIGINT NOT NULL DEFAULT 0,
    "permissions" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_permissions_pkey" PRIMARY KEY ("guild_id","command_id")
);

-- CreateIndex
CREATE INDEX "command_permissions_guild_id_application_id_idx" ON "permissions"."command_permissions"("guild_id", "application_id");

-- CreateIndex
CREATE INDEX "command_permissions_command_id_idx" ON "permissions"."command_permissions"("command_id");

