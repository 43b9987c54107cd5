-- AutoMod rules (issue 24): a guild's rules, judged on every message create and edit in the guild.
-- CreateTable
CREATE TABLE "interactions"."automod_rule" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "trigger_type" SMALLINT NOT NULL,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automod_rule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "automod_rule_guild_id_idx" ON "interactions"."automod_rule"("guild_id");

