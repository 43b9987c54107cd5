-- A provisional account merged into a full account (Social SDK): kept, with its tokens
-- revoked, so that what still names it (lobby messages) resolves.
ALTER TABLE "oauth"."user" ADD COLUMN "merged_into_user_id" BIGINT;
-- A provisional account a ban-driven unmerge created: restricted (no merge, 530017) while
-- the ban of this user lasts.
ALTER TABLE "oauth"."user" ADD COLUMN "restricted_by_ban_of" BIGINT;

-- A ban of a user (admin API): permanent when `until` is null.
CREATE TABLE "oauth"."user_ban" (
    "user_id" BIGINT NOT NULL,
    "reason" TEXT,
    "until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_ban_pkey" PRIMARY KEY ("user_id")
);

ALTER TABLE "oauth"."user_ban" ADD CONSTRAINT "user_ban_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "oauth"."user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
