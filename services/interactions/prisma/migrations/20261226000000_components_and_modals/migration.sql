-- AlterTable: component interactions (type 3) and modal submits (type 5) name the message
-- their component is on, and a modal (callback 9) is submitted once.
ALTER TABLE "interactions"."interaction" ADD COLUMN "message_id" BIGINT,
ADD COLUMN "modal_submitted_at" TIMESTAMPTZ(3);
