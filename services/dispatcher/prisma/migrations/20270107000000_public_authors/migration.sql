-- LOBBY_MESSAGE_CREATE / _UPDATE webhook events carried the message's author as the author
-- sees themselves (e-mail, verified, MFA, locale, premium type, `bot: false`). Strip the
-- private fields from the bodies kept (pending, retried, or finished and not yet pruned):
-- an event receiver is not the author. `bot` stays only on bots.
UPDATE "dispatcher"."webhook_delivery"
   SET "body" = jsonb_set("body"::jsonb, '{event,data,author}',
         ("body"::jsonb -> 'event' -> 'data' -> 'author') - ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type']
           - CASE WHEN "body"::jsonb -> 'event' -> 'data' -> 'author' -> 'bot' = 'true'::jsonb THEN ARRAY[]::text[] ELSE ARRAY['bot'] END)::text
 WHERE "event_type" IN ('LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE')
   AND ("body"::jsonb -> 'event' -> 'data' -> 'author') ?| ARRAY['email', 'verified', 'mfa_enabled', 'locale', 'premium_type'];
