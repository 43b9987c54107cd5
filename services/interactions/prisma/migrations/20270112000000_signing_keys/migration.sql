-- The deployment's secret keys, made by the first replica that needs one and read by the
-- others (INSERT … ON CONFLICT DO NOTHING, then SELECT), so that every replica signs and
-- checks alike. `attachments`: the HMAC key of attachment URLs (`ex`, `is`, `hm`).
CREATE TABLE "interactions"."signing_key" (
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_key_pkey" PRIMARY KEY ("name")
);
