-- Guild message search (GET /guilds/{id}/messages/search). A guild's messages are indexed
-- off the request path: its first search records the guild here (202 / 110000 until
-- `indexed_at`), the indexer copies the guild's messages into search_document once
-- `ready_at` has passed, and the consumer of the service's own message events keeps the
-- documents of indexed guilds in step with new, edited, pinned and deleted messages.
CREATE TABLE "interactions"."search_index" (
    "guild_id" BIGINT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ready_at" TIMESTAMPTZ(3) NOT NULL,
    "indexed_at" TIMESTAMPTZ(3),
    CONSTRAINT "search_index_pkey" PRIMARY KEY ("guild_id")
);

-- One searchable message: the fields the filters read, the content as a tsvector.
CREATE TABLE "interactions"."search_document" (
    "message_id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "author_id" BIGINT NOT NULL,
    "author_type" TEXT NOT NULL,
    "content" TSVECTOR NOT NULL,
    "mention_ids" BIGINT[] NOT NULL,
    "mention_role_ids" BIGINT[] NOT NULL,
    "mention_everyone" BOOLEAN NOT NULL,
    "replied_to_user_id" BIGINT,
    "replied_to_message_id" BIGINT,
    "pinned" BOOLEAN NOT NULL,
    "has" TEXT[] NOT NULL,
    "embed_types" TEXT[] NOT NULL,
    "embed_providers" TEXT[] NOT NULL,
    "link_hostnames" TEXT[] NOT NULL,
    "attachment_extensions" TEXT[] NOT NULL,
    "attachment_filenames" TEXT[] NOT NULL,
    CONSTRAINT "search_document_pkey" PRIMARY KEY ("message_id")
);

CREATE INDEX "search_document_guild_id_message_id_idx" ON "interactions"."search_document"("guild_id", "message_id");
CREATE INDEX "search_document_content_idx" ON "interactions"."search_document" USING GIN ("content");
CREATE INDEX "message_guild_id_id_idx" ON "interactions"."message"("guild_id", "id");
