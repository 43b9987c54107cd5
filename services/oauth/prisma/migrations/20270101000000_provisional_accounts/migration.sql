-- Provisional accounts (Social SDK): a user owned by one application.
ALTER TABLE "oauth"."user" ADD COLUMN "provisional_application_id" BIGINT;

ALTER TABLE "oauth"."user" ADD CONSTRAINT "user_provisional_application_id_fkey" FOREIGN KEY ("provisional_application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A game's identity of a player (the bot endpoint's external user id, or an identity
-- provider's subject) and the account it belongs to.
CREATE TABLE "oauth"."external_identity" (
    "application_id" BIGINT NOT NULL,
    "auth_type" TEXT NOT NULL,
    "external_user_id" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "external_identity_pkey" PRIMARY KEY ("application_id","auth_type","external_user_id")
);

CREATE INDEX "external_identity_user_id_idx" ON "oauth"."external_identity"("user_id");

ALTER TABLE "oauth"."external_identity" ADD CONSTRAINT "external_identity_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "oauth"."external_identity" ADD CONSTRAINT "external_identity_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
