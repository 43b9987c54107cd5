-- Identity providers of an application (the External Credentials Exchange), and the tokens
-- their test issuers mint (digests only).
CREATE TABLE "oauth"."identity_provider" (
    "application_id" BIGINT NOT NULL,
    "auth_type" TEXT NOT NULL,
    "issuer" TEXT,
    "audience" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_provider_pkey" PRIMARY KEY ("application_id","auth_type")
);

CREATE TABLE "oauth"."test_external_token" (
    "token_hash" BYTEA NOT NULL,
    "application_id" BIGINT NOT NULL,
    "auth_type" TEXT NOT NULL,
    "external_user_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_external_token_pkey" PRIMARY KEY ("token_hash")
);

CREATE INDEX "test_external_token_expires_at_idx" ON "oauth"."test_external_token"("expires_at");

ALTER TABLE "oauth"."identity_provider" ADD CONSTRAINT "identity_provider_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "oauth"."test_external_token" ADD CONSTRAINT "test_external_token_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth"."application"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
