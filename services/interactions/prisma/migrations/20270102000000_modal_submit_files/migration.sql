-- A modal submit's uploaded files belong to the submit's interaction, not to a message.
ALTER TABLE "interactions"."attachment" ALTER COLUMN "message_id" DROP NOT NULL;
