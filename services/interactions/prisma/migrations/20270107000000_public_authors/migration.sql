-- A linked lobby's message was posted to its channel with its author as the author sees
-- themselves (e-mail, verified, MFA, locale, premium type, `bot: false`). Others may see
-- only the public user object (OAS `UserResponse`): strip the rest from the stored
-- messages and from the outbox rows of their events. `bot` stays only on bots.
UPDATE "interactions"."message"
   SET "body" = jsonb_set("body", '{author}',
         ("body" -> 'author') - ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type']
           - CASE WHEN "body" -> 'author' -> 'bot' = 'true'::jsonb THEN ARRAY[]::text[] ELSE ARRAY['bot'] END)
 WHERE "lobby_message_id" IS NOT NULL
   AND ("body" -> 'author') ?| ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type'];

UPDATE "interactions"."outbox"
   SET "payload" = jsonb_set("payload", '{data,message,author}',
         ("payload" -> 'data' -> 'message' -> 'author') - ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type']
           - CASE WHEN "payload" -> 'data' -> 'message' -> 'author' -> 'bot' = 'true'::jsonb THEN ARRAY[]::text[] ELSE ARRAY['bot'] END)
 WHERE ("payload" -> 'data' -> 'message' -> 'author') ?| ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type'];
