-- The presence each gateway session set (op 3, or the presence of Identify), shared by every
-- replica: the sessions of a user may sit on other replicas than the bots that receive their
-- PRESENCE_UPDATE, and op 8 / GUILD_CREATE read presences wherever they are answered.
-- The presence of a user is the one their most recently updated session set. When the row
-- of the last session goes, the user is offline.
CREATE TABLE "dispatcher"."presence_session" (
    "session_id" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,
    -- user (a chat client) or bot (a bot session: the user id is the application id).
    "setter" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "activities" JSONB NOT NULL,
    "since" BIGINT,
    "afk" BOOLEAN NOT NULL DEFAULT false,
    -- The profile privacy of the user when the presence was set (who sees a custom status).
    "profile_privacy" TEXT NOT NULL DEFAULT 'everyone',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- The replica holding the session, which renews seen_at while it lives: the rows of a
    -- replica that died stop counting once seen_at is older than the staleness bound.
    "replica_id" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "presence_session_pkey" PRIMARY KEY ("session_id")
);

-- CreateIndex
CREATE INDEX "presence_session_user_id_updated_at_idx" ON "dispatcher"."presence_session"("user_id", "updated_at");

-- CreateIndex
CREATE INDEX "presence_session_replica_id_idx" ON "dispatcher"."presence_session"("replica_id");

-- CreateIndex
CREATE INDEX "presence_session_seen_at_idx" ON "dispatcher"."presence_session"("seen_at");
