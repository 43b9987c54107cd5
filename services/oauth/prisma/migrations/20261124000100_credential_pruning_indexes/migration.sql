-- CreateIndex
CREATE INDEX "access_token_expires_at_idx" ON "oauth"."access_token"("expires_at");

-- CreateIndex
CREATE INDEX "authorization_code_grant_id_idx" ON "oauth"."authorization_code"("grant_id");

