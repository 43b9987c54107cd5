-- CreateTable
CREATE TABLE "permissions"."snowflake_lease" (
    "process_id" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "snowflake_lease_pkey" PRIMARY KEY ("process_id")
);

