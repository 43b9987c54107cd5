-- Prisma's pg adapter runs a migration split at every semicolon (adapter-pg executeScript),
-- so the PL/pgSQL bodies below are E'' strings that spell theirs \x3b, and no comment has one.
-- The storage budget of each application (issue 28, item 5): the bytes of its messages
-- (their body, while not deleted) and of its files (attachment sizes), counted by triggers
-- in the transaction that stores or removes them, so that no path that writes a message or
-- a file can miss the count, and a refusal rolls the whole write back.
--
-- The quota is the connection's setting `acs.storage_quota_bytes` (interactions sets it from
-- APPLICATION_STORAGE_QUOTA_BYTES on every connection, unset or 0: no quota). A change that
-- adds bytes past it raises SQLSTATE AC413, which the service answers 413 / 40005. The
-- count's row is locked by the UPDATE until commit: two uploads of one application are
-- counted one after the other, never both against the same total. Removing bytes is never
-- refused, even above a quota lowered since.
CREATE TABLE "interactions"."application_storage" (
    "application_id" BIGINT NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "application_storage_pkey" PRIMARY KEY ("application_id")
);

CREATE FUNCTION "interactions"."count_application_storage"(app BIGINT, delta BIGINT) RETURNS void
LANGUAGE plpgsql AS E'
DECLARE
  total BIGINT\x3b
  quota BIGINT\x3b
BEGIN
  IF app IS NULL OR delta = 0 THEN
    RETURN\x3b
  END IF\x3b
  INSERT INTO "interactions"."application_storage" AS s (application_id, bytes) VALUES (app, delta)
    ON CONFLICT (application_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes
    RETURNING s.bytes INTO total\x3b
  IF delta > 0 THEN
    quota := NULLIF(NULLIF(current_setting(''acs.storage_quota_bytes'', true), ''''), ''0'')::BIGINT\x3b
    IF quota IS NOT NULL AND total > quota THEN
      RAISE EXCEPTION ''application % would store % bytes, over its quota of % bytes'', app, total, quota
        USING ERRCODE = ''AC413''\x3b
    END IF\x3b
  END IF\x3b
END ';

-- A message's bytes: its body's, while it is not deleted (an application's message only).
CREATE FUNCTION "interactions"."count_message_storage"() RETURNS trigger
LANGUAGE plpgsql AS E'
DECLARE
  before BIGINT := 0\x3b
  after BIGINT := 0\x3b
BEGIN
  IF TG_OP <> ''INSERT'' AND OLD.deleted_at IS NULL THEN
    before := octet_length(OLD.body::text)\x3b
  END IF\x3b
  IF TG_OP <> ''DELETE'' AND NEW.deleted_at IS NULL THEN
    after := octet_length(NEW.body::text)\x3b
  END IF\x3b
  IF TG_OP = ''DELETE'' THEN
    PERFORM "interactions"."count_application_storage"(OLD.application_id, after - before)\x3b
  ELSE
    PERFORM "interactions"."count_application_storage"(NEW.application_id, after - before)\x3b
  END IF\x3b
  RETURN NULL\x3b
END ';

CREATE TRIGGER "message_storage" AFTER INSERT OR DELETE OR UPDATE OF "body", "deleted_at"
  ON "interactions"."message" FOR EACH ROW EXECUTE FUNCTION "interactions"."count_message_storage"();

-- A file's bytes: its size, counted to the application of its message (or, for a modal
-- submit's file, of its interaction).
CREATE FUNCTION "interactions"."count_attachment_storage"() RETURNS trigger
LANGUAGE plpgsql AS E'
DECLARE
  row_ "interactions"."attachment"%ROWTYPE\x3b
  app BIGINT\x3b
BEGIN
  IF TG_OP = ''DELETE'' THEN
    row_ := OLD\x3b
  ELSE
    row_ := NEW\x3b
  END IF\x3b
  SELECT application_id INTO app FROM "interactions"."message" WHERE id = row_.message_id\x3b
  IF app IS NULL THEN
    SELECT application_id INTO app FROM "interactions"."interaction" WHERE id = row_.interaction_id\x3b
  END IF\x3b
  PERFORM "interactions"."count_application_storage"(
    app, CASE WHEN TG_OP = ''DELETE'' THEN -row_.size ELSE row_.size END)\x3b
  RETURN NULL\x3b
END ';

CREATE TRIGGER "attachment_storage" AFTER INSERT OR DELETE
  ON "interactions"."attachment" FOR EACH ROW EXECUTE FUNCTION "interactions"."count_attachment_storage"();

-- What is already stored counts from the start.
INSERT INTO "interactions"."application_storage" (application_id, bytes)
SELECT app, SUM(bytes)::BIGINT FROM (
  SELECT application_id AS app, octet_length(body::text)::BIGINT AS bytes
    FROM "interactions"."message" WHERE deleted_at IS NULL AND application_id IS NOT NULL
  UNION ALL
  SELECT COALESCE(m.application_id, i.application_id), a.size
    FROM "interactions"."attachment" a
    LEFT JOIN "interactions"."message" m ON m.id = a.message_id
    LEFT JOIN "interactions"."interaction" i ON i.id = a.interaction_id
) AS stored WHERE app IS NOT NULL GROUP BY app;

-- The sweep of expired ephemeral answers finds the live ephemeral messages by interaction.
CREATE INDEX "message_live_ephemeral_idx" ON "interactions"."message"("interaction_id")
  WHERE "ephemeral_user_id" IS NOT NULL AND "deleted_at" IS NULL;
