-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "lobby";

-- CreateTable
CREATE TABLE "lobby"."lobby" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "metadata" JSONB,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "idle_timeout_seconds" INTEGER NOT NULL,
    "override_event_webhooks_url" TEXT,
    "secret" TEXT,
    "secret_expires_at" TIMESTAMPTZ(3),
    "linked_channel_id" BIGINT,
    "linked_channel" JSONB,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lobby_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lobby"."lobby_member" (
    "lobby_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "metadata" JSONB,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "additional_name" TEXT,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lobby_member_pkey" PRIMARY KEY ("lobby_id","user_id")
);

-- CreateTable
CREATE TABLE "lobby"."lobby_message" (
    "id" BIGINT NOT NULL,
    "lobby_id" BIGINT NOT NULL,
    "message" JSONB NOT NULL,
    "moderation_metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lobby_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lobby"."outbox" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),
    "trace_context" JSONB,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lobby"."snowflake_lease" (
    "process_id" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "snowflake_lease_pkey" PRIMARY KEY ("process_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "lobby_application_id_secret_key" ON "lobby"."lobby"("application_id", "secret");

-- CreateIndex
CREATE UNIQUE INDEX "lobby_linked_channel_id_key" ON "lobby"."lobby"("linked_channel_id");

-- CreateIndex
CREATE INDEX "lobby_expires_at_idx" ON "lobby"."lobby"("expires_at");

-- CreateIndex
CREATE INDEX "lobby_member_application_id_user_id_idx" ON "lobby"."lobby_member"("application_id", "user_id");

-- CreateIndex
CREATE INDEX "lobby_message_lobby_id_id_idx" ON "lobby"."lobby_message"("lobby_id", "id" DESC);

-- CreateIndex
CREATE INDEX "lobby_message_created_at_idx" ON "lobby"."lobby_message"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_seq_key" ON "lobby"."outbox"("seq");

-- CreateIndex
CREATE INDEX "outbox_published_at_seq_idx" ON "lobby"."outbox"("published_at", "seq");

-- AddForeignKey
ALTER TABLE "lobby"."lobby_member" ADD CONSTRAINT "lobby_member_lobby_id_fkey" FOREIGN KEY ("lobby_id") REFERENCES "lobby"."lobby"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lobby"."lobby_message" ADD CONSTRAINT "lobby_message_lobby_id_fkey" FOREIGN KEY ("lobby_id") REFERENCES "lobby"."lobby"("id") ON DELETE CASCADE ON UPDATE CASCADE;
