-- CreateTable
CREATE TABLE "dispatcher"."guild_member_request" (
    "application_id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "guild_member_request_pkey" PRIMARY KEY ("application_id","guild_id")
);

-- CreateIndex
CREATE INDEX "guild_member_request_requested_at_idx" ON "dispatcher"."guild_member_request"("requested_at");

