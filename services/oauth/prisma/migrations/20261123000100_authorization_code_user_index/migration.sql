-- CreateIndex
CREATE INDEX "authorization_code_application_id_user_id_idx" ON "oauth"."authorization_code"("application_id", "user_id");

