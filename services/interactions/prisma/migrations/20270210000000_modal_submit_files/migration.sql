-- A modal submit's files (no message: owned by the submit's interaction), as the sweep of
-- expired tokens finds them.
CREATE INDEX "attachment_modal_submit_interaction_idx" ON "interactions"."attachment"("interaction_id")
  WHERE "message_id" IS NULL;
