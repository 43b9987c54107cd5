-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "dispatcher";

-- CreateTable
CREATE TABLE "dispatcher"."processed_event" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dispatcher"."webhook_delivery" (
    "event_id" TEXT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "event_type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leased_until" TIMESTAMPTZ(3),
    "first_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("event_id","application_id")
);

-- CreateTable
CREATE TABLE "dispatcher"."webhook_endpoint" (
    "application_id" BIGINT NOT NULL,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "disabled_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("application_id")
);

-- CreateIndex
CREATE INDEX "processed_event_processed_at_idx" ON "dispatcher"."processed_event"("processed_at");

-- CreateIndex
CREATE INDEX "webhook_delivery_status_next_attempt_at_idx" ON "dispatcher"."webhook_delivery"("status", "next_attempt_at");

