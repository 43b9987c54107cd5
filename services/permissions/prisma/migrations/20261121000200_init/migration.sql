-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "permissions";

-- CreateTable
CREATE TABLE "permissions"."guild" (
    "id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "owner_id" BIGINT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "guild_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "permissions"."role" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "permissions" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "role_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "permissions"."member" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "nick" TEXT,
    "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_pkey" PRIMARY KEY ("guild_id","user_id")
);

-- CreateTable
CREATE TABLE "permissions"."member_role" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "role_id" BIGINT NOT NULL,

    CONSTRAINT "member_role_pkey" PRIMARY KEY ("guild_id","user_id","role_id")
);

-- CreateTable
CREATE TABLE "permissions"."channel" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "parent_id" BIGINT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "permissions"."permission_overwrite" (
    "channel_id" BIGINT NOT NULL,
    "target_id" BIGINT NOT NULL,
    "type" INTEGER NOT NULL,
    "allow" BIGINT NOT NULL,
    "deny" BIGINT NOT NULL,

    CONSTRAINT "permission_overwrite_pkey" PRIMARY KEY ("channel_id","target_id")
);

-- CreateTable
CREATE TABLE "permissions"."outbox" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "role_guild_id_idx" ON "permissions"."role"("guild_id");

-- CreateIndex
CREATE INDEX "member_user_id_idx" ON "permissions"."member"("user_id");

-- CreateIndex
CREATE INDEX "member_role_role_id_idx" ON "permissions"."member_role"("role_id");

-- CreateIndex
CREATE INDEX "channel_guild_id_idx" ON "permissions"."channel"("guild_id");

-- CreateIndex
CREATE INDEX "channel_parent_id_idx" ON "permissions"."channel"("parent_id");

-- CreateIndex
CREATE INDEX "outbox_published_at_created_at_idx" ON "permissions"."outbox"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "permissions"."role" ADD CONSTRAINT "role_guild_id_fkey" FOREIGN KEY ("guild_id") REFERENCES "permissions"."guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "permissions"."member" ADD CONSTRAINT "member_guild_id_fkey" FOREIGN KEY ("guild_id") REFERENCES "permissions"."guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "permissions"."member_role" ADD CONSTRAINT "member_role_guild_id_user_id_fkey" FOREIGN KEY ("guild_id", "user_id") REFERENCES "permissions"."member"("guild_id", "user_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "permissions"."member_role" ADD CONSTRAINT "member_role_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "permissions"."role"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "permissions"."channel" ADD CONSTRAINT "channel_guild_id_fkey" FOREIGN KEY ("guild_id") REFERENCES "permissions"."guild"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "permissions"."channel" ADD CONSTRAINT "channel_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "permissions"."channel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "permissions"."permission_overwrite" ADD CONSTRAINT "permission_overwrite_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "permissions"."channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

