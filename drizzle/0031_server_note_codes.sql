ALTER TABLE "order_fulfillment_history" ADD COLUMN "remarks_code" text;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD COLUMN "note_code" text;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD COLUMN "note_params" jsonb;--> statement-breakpoint
ALTER TABLE "support_inquiry_messages" ADD COLUMN "body_code" text;--> statement-breakpoint
-- Rows written before the codes: the server's own sentences get their code, so the back office
-- words them in Nepali too. Typed notes (customers', staff's) match none of these and stay uncoded.
UPDATE "order_status_history" SET "note_code" = 'cod_checkout'
  WHERE "note_code" IS NULL AND "actor_type" = 'customer' AND "status" = 'payment_pending' AND "notes" = 'Cash on delivery';--> statement-breakpoint
UPDATE "order_status_history" SET "note_code" = 'online_checkout', "note_params" = jsonb_build_object('gateway', substr("notes", 12))
  WHERE "note_code" IS NULL AND "actor_type" = 'customer' AND "status" = 'payment_pending' AND "notes" ~ '^Payment by gateway_[a-z_]+$';--> statement-breakpoint
UPDATE "order_status_history" SET "note_code" = 'payment_verified', "note_params" = jsonb_build_object('reference', regexp_replace("notes", '^Payment (.+) verified$', '\1'))
  WHERE "note_code" IS NULL AND "actor_type" = 'system' AND "status" = 'paid' AND "notes" ~ '^Payment .+ verified$';--> statement-breakpoint
UPDATE "order_status_history" SET "note_code" = 'in_store_payment', "note_params" = jsonb_build_object('reference', regexp_replace("notes", '^In-store payment (.+) \((pos_[a-z_]+)\)$', '\1'), 'gateway', regexp_replace("notes", '^In-store payment (.+) \((pos_[a-z_]+)\)$', '\2'))
  WHERE "note_code" IS NULL AND "actor_type" = 'system' AND "status" = 'paid' AND "notes" ~ '^In-store payment .+ \(pos_[a-z_]+\)$';--> statement-breakpoint
UPDATE "order_status_history" SET "note_code" = 'payment_failed', "note_params" = jsonb_build_object('reason', "notes")
  WHERE "note_code" IS NULL AND "actor_type" = 'system' AND "status" = 'payment_failed' AND "notes" IS NOT NULL;--> statement-breakpoint
UPDATE "order_status_history" SET "note_code" = 'payment_timeout'
  WHERE "note_code" IS NULL AND "actor_type" = 'system' AND "status" = 'cancelled' AND "notes" = 'payment_timeout';--> statement-breakpoint
UPDATE "order_status_history" SET "note_code" = 'replaced_by_new_checkout'
  WHERE "note_code" IS NULL AND "actor_type" = 'system' AND "status" = 'cancelled' AND "notes" = 'Replaced by a new checkout of the same cart';--> statement-breakpoint
UPDATE "order_status_history" SET "note_code" = 'in_store_sale'
  WHERE "note_code" IS NULL AND "actor_type" = 'admin' AND "status" = 'payment_pending' AND "notes" = 'In-store sale';--> statement-breakpoint
UPDATE "support_inquiry_messages" SET "body_code" = 'greeting'
  WHERE "body_code" IS NULL AND "author_type" = 'system' AND "body" = 'Thank you for contacting us. A member of our support team will reply here as soon as possible.';
--> statement-breakpoint
UPDATE "order_fulfillment_history" SET "remarks_code" = 'picked_up_in_store'
  WHERE "remarks_code" IS NULL AND "actor_type" = 'admin' AND "remarks" = 'Picked up in store';
