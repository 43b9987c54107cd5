-- CreateTable
CREATE TABLE "oauth"."sku" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "flags" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sku_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth"."entitlement" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "sku_id" BIGINT NOT NULL,
    "user_id" BIGINT,
    "guild_id" BIGINT,
    "type" INTEGER NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "consumed" BOOLEAN NOT NULL DEFAULT false,
    "starts_at" TIMESTAMPTZ(3),
    "ends_at" TIMESTAMPTZ(3),
    "subscription_id" BIGINT,

    CONSTRAINT "entitlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth"."subscription" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "sku_ids" BIGINT[],
    "renewal_sku_ids" JSONB,
    "status" INTEGER NOT NULL,
    "current_period_start" TIMESTAMPTZ(3) NOT NULL,
    "current_period_end" TIMESTAMPTZ(3) NOT NULL,
    "canceled_at" TIMESTAMPTZ(3),

    CONSTRAINT "subscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sku_application_id_id_idx" ON "oauth"."sku"("application_id", "id");

-- CreateIndex
CREATE INDEX "entitlement_application_id_id_idx" ON "oauth"."entitlement"("application_id", "id");

-- CreateIndex
CREATE INDEX "entitlement_user_id_application_id_idx" ON "oauth"."entitlement"("user_id", "application_id");

-- CreateIndex
CREATE INDEX "entitlement_guild_id_application_id_idx" ON "oauth"."entitlement"("guild_id", "application_id");

-- CreateIndex
CREATE INDEX "entitlement_subscription_id_idx" ON "oauth"."entitlement"("subscription_id");

-- CreateIndex
CREATE INDEX "subscription_application_id_user_id_id_idx" ON "oauth"."subscription"("application_id", "user_id", "id");

-- AddForeignKey
ALTER TABLE "oauth"."sku" ADD CONSTRAINT "sku_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."entitlement" ADD CONSTRAINT "entitlement_sku_id_fkey" FOREIGN KEY ("sku_id") REFERENCES "oauth"."sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."entitlement" ADD CONSTRAINT "entitlement_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "oauth"."subscription"("id") ON DELETE SET NULL ON UPDATE CASCADE;

