-- A user's chat-client sessions are counted against the Identify limits per user, apart
-- from bots': a row names either an application (its bot) or a user. Replicas that know
-- only bots keep working meanwhile: they write application_id, and read rows by it.
ALTER TABLE "dispatcher"."gateway_identify" ALTER COLUMN "application_id" DROP NOT NULL,
    ADD COLUMN "user_id" BIGINT;

ALTER TABLE "dispatcher"."gateway_identify" ADD CONSTRAINT "gateway_identify_one_principal"
    CHECK (("application_id" IS NULL) <> ("user_id" IS NULL));

-- CreateIndex
CREATE INDEX "gateway_identify_user_id_identified_at_idx" ON "dispatcher"."gateway_identify"("user_id", "identified_at");
