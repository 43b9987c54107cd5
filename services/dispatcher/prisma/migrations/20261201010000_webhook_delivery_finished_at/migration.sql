-- CreateIndex
CREATE INDEX "webhook_delivery_finished_at_idx" ON "dispatcher"."webhook_delivery"("finished_at");

