-- The interaction timeline (GET /admin/applications/{id}/interactions): what a test needs to
-- see of each interaction after the fact, on every replica. One row per interaction, kept
-- apart from `interaction` so that it is bounded on its own terms: the latest 1000 of each
-- application (pruned when one is recorded), bodies capped. Written in the statements that
-- decide what it records (the recording, the acknowledgement, the failure), so that it
-- never tells another story than the interaction row.
CREATE TABLE "interactions"."interaction_trace" (
    "interaction_id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "type" SMALLINT NOT NULL,
    -- The command name. Components and modal submits: with their custom_id.
    "command_name" TEXT NOT NULL,
    "custom_id" TEXT,
    "user_id" BIGINT NOT NULL,
    "guild_id" BIGINT,
    "channel_id" BIGINT NOT NULL,
    -- The interaction object the app received, without its token (capped).
    "payload" JSONB NOT NULL,
    -- {kind: "gateway"} or {kind: "endpoint", url, signature_headers, timestamp, status?}.
    "delivery" JSONB NOT NULL,
    -- Null while pending: {kind: "answered", callback_type, body} or
    -- {kind: "failed", reason_code, reason, cause}.
    "outcome" JSONB,
    -- Callbacks refused before the outcome: [{at, status, body}], the latest few.
    "refusals" JSONB NOT NULL DEFAULT '[]',
    -- Follow-ups, edits and deletions through the token: [{kind, message_id, at, body?}].
    "steps" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),
    "answered_at" TIMESTAMPTZ(3),

    CONSTRAINT "interaction_trace_pkey" PRIMARY KEY ("interaction_id")
);

-- CreateIndex
CREATE INDEX "interaction_trace_application_id_interaction_id_idx" ON "interactions"."interaction_trace"("application_id", "interaction_id");
