-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "oauth";

-- CreateTable
CREATE TABLE "oauth"."user" (
    "id" BIGINT NOT NULL,
    "username" TEXT NOT NULL,
    "global_name" TEXT,
    "locale" TEXT NOT NULL DEFAULT 'en-US',
    "email" TEXT,
    "premium_type" INTEGER NOT NULL DEFAULT 0,
    "bot" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth"."application" (
    "id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "flags" BIGINT NOT NULL DEFAULT 0,
    "integration_types" INTEGER[],
    "redirect_uris" TEXT[],
    "interactions_endpoint_url" TEXT,
    "event_webhooks_url" TEXT,
    "event_webhooks_types" TEXT[],
    "public_client" BOOLEAN NOT NULL DEFAULT false,
    "owner_id" BIGINT,
    "verify_key" TEXT NOT NULL,
    "signing_key" TEXT NOT NULL,
    "bot_token_hash" BYTEA NOT NULL,
    "client_secret_hash" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth"."session" (
    "token_hash" BYTEA NOT NULL,
    "user_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "session_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "oauth"."access_token" (
    "token_hash" BYTEA NOT NULL,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT,
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_token_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "oauth"."authorization_code" (
    "code_hash" BYTEA NOT NULL,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "scopes" TEXT[],
    "redirect_uri" TEXT,
    "code_challenge" TEXT,
    "code_challenge_method" TEXT,
    "guild_id" BIGINT,
    "permissions" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "authorization_code_pkey" PRIMARY KEY ("code_hash")
);

-- CreateTable
CREATE TABLE "oauth"."guild_installation" (
    "application_id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "scopes" TEXT[],
    "permissions" TEXT NOT NULL DEFAULT '0',
    "installed_by" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "guild_installation_pkey" PRIMARY KEY ("application_id","guild_id")
);

-- CreateTable
CREATE TABLE "oauth"."user_installation" (
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "user_installation_pkey" PRIMARY KEY ("application_id","user_id")
);

-- CreateTable
CREATE TABLE "oauth"."outbox" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "application_bot_token_hash_key" ON "oauth"."application"("bot_token_hash");

-- CreateIndex
CREATE INDEX "session_user_id_idx" ON "oauth"."session"("user_id");

-- CreateIndex
CREATE INDEX "access_token_application_id_user_id_idx" ON "oauth"."access_token"("application_id", "user_id");

-- CreateIndex
CREATE INDEX "authorization_code_expires_at_idx" ON "oauth"."authorization_code"("expires_at");

-- CreateIndex
CREATE INDEX "guild_installation_guild_id_idx" ON "oauth"."guild_installation"("guild_id");

-- CreateIndex
CREATE INDEX "user_installation_user_id_idx" ON "oauth"."user_installation"("user_id");

-- CreateIndex
CREATE INDEX "outbox_published_at_created_at_idx" ON "oauth"."outbox"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "oauth"."application" ADD CONSTRAINT "application_id_fkey" FOREIGN KEY ("id") REFERENCES "oauth"."user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."application" ADD CONSTRAINT "application_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "oauth"."user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."session" ADD CONSTRAINT "session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."access_token" ADD CONSTRAINT "access_token_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."access_token" ADD CONSTRAINT "access_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."authorization_code" ADD CONSTRAINT "authorization_code_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."authorization_code" ADD CONSTRAINT "authorization_code_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."guild_installation" ADD CONSTRAINT "guild_installation_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."user_installation" ADD CONSTRAINT "user_installation_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."user_installation" ADD CONSTRAINT "user_installation_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

