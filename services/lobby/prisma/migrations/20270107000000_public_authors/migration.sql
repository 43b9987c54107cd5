-- A lobby message's author was stored as the author sees themselves (e-mail, verified,
-- MFA, locale, premium type, `bot: false`). Others may see only the public user object
-- (OAS `UserResponse`): strip the rest from the stored messages and from the outbox rows
-- of their events. `bot` stays only on bots.
UPDATE "lobby"."lobby_message"
   SET "message" = jsonb_set("message", '{author}',
         ("message" -> 'author') - ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type']
           - CASE WHEN "message" -> 'author' -> 'bot' = 'true'::jsonb THEN ARRAY[]::text[] ELSE ARRAY['bot'] END)
 WHERE ("message" -> 'author') ?| ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type'];

UPDATE "lobby"."outbox"
   SET "payload" = jsonb_set("payload", '{data,message,author}',
         ("payload" -> 'data' -> 'message' -> 'author') - ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type']
           - CASE WHEN "payload" -> 'data' -> 'message' -> 'author' -> 'bot' = 'true'::jsonb THEN ARRAY[]::text[] ELSE ARRAY['bot'] END)
 WHERE ("payload" -> 'data' -> 'message' -> 'author') ?| ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type'];
