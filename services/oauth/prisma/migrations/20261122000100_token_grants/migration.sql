-- AlterTable
ALTER TABLE "oauth"."access_token" ADD COLUMN     "grant_id" BIGINT;

-- AlterTable
ALTER TABLE "oauth"."authorization_code" ADD COLUMN     "grant_id" BIGINT;

-- CreateTable
CREATE TABLE "oauth"."token_grant" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT,
    "kind" TEXT NOT NULL,
    "scopes" TEXT[],
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_grant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth"."refresh_token" (
    "token_hash" BYTEA NOT NULL,
    "grant_id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_token_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "oauth"."connection" (
    "user_id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT true,
    "friend_sync" BOOLEAN NOT NULL DEFAULT false,
    "show_activity" BOOLEAN NOT NULL DEFAULT true,
    "two_way_link" BOOLEAN NOT NULL DEFAULT false,
    "visibility" INTEGER NOT NULL DEFAULT 1,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connection_pkey" PRIMARY KEY ("user_id","type","account_id")
);

-- CreateIndex
CREATE INDEX "token_grant_application_id_user_id_idx" ON "oauth"."token_grant"("application_id", "user_id");

-- CreateIndex
CREATE INDEX "refresh_token_grant_id_idx" ON "oauth"."refresh_token"("grant_id");

-- CreateIndex
CREATE INDEX "access_token_grant_id_idx" ON "oauth"."access_token"("grant_id");

-- AddForeignKey
ALTER TABLE "oauth"."access_token" ADD CONSTRAINT "access_token_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth"."token_grant"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."authorization_code" ADD CONSTRAINT "authorization_code_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth"."token_grant"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."token_grant" ADD CONSTRAINT "token_grant_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."token_grant" ADD CONSTRAINT "token_grant_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."refresh_token" ADD CONSTRAINT "refresh_token_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth"."token_grant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."refresh_token" ADD CONSTRAINT "refresh_token_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."connection" ADD CONSTRAINT "connection_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

