-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "registry";

-- CreateTable
CREATE TABLE "registry"."command" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "version" BIGINT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "registry"."command_scope" (
    "application_id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "revision" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "command_scope_pkey" PRIMARY KEY ("application_id","guild_id")
);

-- CreateTable
CREATE TABLE "registry"."daily_creates" (
    "application_id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "day" DATE NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "daily_creates_pkey" PRIMARY KEY ("application_id","guild_id","day")
);

-- CreateTable
CREATE TABLE "registry"."outbox" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "command_application_id_guild_id_idx" ON "registry"."command"("application_id", "guild_id");

-- CreateIndex
-- A constraint rather than a plain unique index so that a bulk overwrite can defer it:
-- swapping two commands' names inside one transaction must not trip over itself.
ALTER TABLE "registry"."command" ADD CONSTRAINT "command_scope_name_key"
  UNIQUE ("application_id", "guild_id", "type", "name") DEFERRABLE INITIALLY IMMEDIATE;

-- CreateIndex
CREATE INDEX "outbox_published_at_created_at_idx" ON "registry"."outbox"("published_at", "created_at");

