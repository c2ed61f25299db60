CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"order_number" text NOT NULL,
	"method" text NOT NULL,
	"gateway" text NOT NULL,
	"provider" text NOT NULL,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"gateway_transaction_id" text NOT NULL,
	"return_url" text NOT NULL,
	"provider_reference" text,
	"provider_payload" jsonb,
	"failure_reason" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('online', 'cod', 'pos')),
	CONSTRAINT "payments_gateway_check" CHECK ("payments"."gateway" in ('gateway_card', 'gateway_wallet_a', 'gateway_wallet_b', 'gateway_bank', 'cod')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('pending', 'completed', 'failed', 'cancelled')),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount" >= 0),
	CONSTRAINT "payments_gateway_transaction_id_check" CHECK ("payments"."gateway_transaction_id" ~ '^[A-Za-z0-9-]+$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payments_gateway_transaction_id_key" ON "payments" USING btree ("gateway_transaction_id");--> statement-breakpoint
CREATE INDEX "payments_order_id_idx" ON "payments" USING btree ("order_id");