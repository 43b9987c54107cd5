-- CreateTable
CREATE TABLE "dispatcher"."gateway_identify" (
    "id" BIGSERIAL NOT NULL,
    "application_id" BIGINT NOT NULL,
    "identified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gateway_identify_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "gateway_identify_application_id_identified_at_idx" ON "dispatcher"."gateway_identify"("application_id", "identified_at");

