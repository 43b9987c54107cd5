-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "interactions";

-- CreateTable
CREATE TABLE "interactions"."interaction" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "type" SMALLINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "guild_id" BIGINT,
    "channel_id" BIGINT NOT NULL,
    "command_id" BIGINT,
    "command_name" TEXT NOT NULL,
    "command_type" SMALLINT NOT NULL,
    "session_id" TEXT,
    "nonce" TEXT,
    "token_hash" BYTEA NOT NULL,
    "delivery" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "reason_code" SMALLINT,
    "response_type" SMALLINT,
    "response" JSONB,
    "user_install_only" BOOLEAN NOT NULL,
    "recipient_ids" BIGINT[],
    "payload" JSONB NOT NULL,
    "original_message_id" BIGINT,
    "followup_count" INTEGER NOT NULL DEFAULT 0,
    "activity_instance_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "interaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "interactions"."message" (
    "id" BIGINT NOT NULL,
    "interaction_id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "guild_id" BIGINT,
    "ephemeral_user_id" BIGINT,
    "is_original" BOOLEAN NOT NULL,
    "flags" INTEGER NOT NULL,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "edited_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "interactions"."outbox" (
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
CREATE TABLE "interactions"."snowflake_lease" (
    "process_id" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "snowflake_lease_pkey" PRIMARY KEY ("process_id")
);

-- CreateIndex
CREATE INDEX "interaction_state_deadline_at_idx" ON "interactions"."interaction"("state", "deadline_at");

-- CreateIndex
CREATE UNIQUE INDEX "interaction_user_nonce_key" ON "interactions"."interaction"("user_id", "nonce");

-- CreateIndex
CREATE INDEX "message_interaction_id_idx" ON "interactions"."message"("interaction_id");

-- CreateIndex
CREATE INDEX "message_channel_id_id_idx" ON "interactions"."message"("channel_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_seq_key" ON "interactions"."outbox"("seq");

-- CreateIndex
CREATE INDEX "outbox_published_at_seq_idx" ON "interactions"."outbox"("published_at", "seq");

