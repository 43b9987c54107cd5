-- The keys that sign OpenID Connect ID tokens, one set per deployment: every replica signs
-- with the oldest and GET /oauth2/keys publishes them all.
CREATE TABLE "oauth"."id_token_key" (
    "kid" TEXT NOT NULL,
    "private_key_pem" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "id_token_key_pkey" PRIMARY KEY ("kid")
);

-- The authorization request's nonce, echoed in the ID token of the code's exchange.
ALTER TABLE "oauth"."authorization_code" ADD COLUMN "nonce" TEXT;
