ALTER TABLE "order_refunds" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "settled_by_admin_id" uuid;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "settlement_method" text;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "settlement_reference" text;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "settlement_remarks" text;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_settlement_method_check" CHECK ("order_refunds"."settlement_method" IS NULL OR "order_refunds"."settlement_method" IN ('cash', 'wallet', 'bank_transfer'));