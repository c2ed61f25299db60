CREATE TABLE "order_fulfillment_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"remarks" text,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_fulfillment_history_allowed_move" CHECK ((from_status = 'received' and to_status = 'ready') or (from_status = 'received' and to_status = 'cancelled') or (from_status = 'ready' and to_status = 'picked_up') or (from_status = 'ready' and to_status = 'cancelled') or (from_status = 'picked_up' and to_status = 'in_transit') or (from_status = 'picked_up' and to_status = 'cancelled') or (from_status = 'in_transit' and to_status = 'delivered') or (from_status = 'in_transit' and to_status = 'cancelled') or (from_status = 'received' and to_status = 'key_sent') or (from_status = 'received' and to_status = 'activated'))
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"product_kind" text NOT NULL,
	"product_title" text NOT NULL,
	"product_slug" text NOT NULL,
	"thumbnail_url" text,
	"quantity" integer NOT NULL,
	"unit_mrp" integer NOT NULL,
	"unit_sp" integer NOT NULL,
	"discount" integer NOT NULL,
	"final_value" integer NOT NULL,
	"care_package_id" integer,
	"pricing_tier_id" integer,
	"care_package_name" text,
	"care_package_tier_label" text,
	"care_package_unit_price" integer,
	"serial_number" text
);
--> statement-breakpoint
CREATE TABLE "order_requests" (
	"request_id" text PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"command" text NOT NULL,
	"customer_id" uuid,
	"admin_id" uuid,
	"status" text NOT NULL,
	"result" jsonb,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"status" text NOT NULL,
	"notes" text,
	"actor_type" text NOT NULL,
	"created_by_customer_id" uuid,
	"created_by_admin_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_number" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_type" text NOT NULL,
	"status" text NOT NULL,
	"payment_status" text NOT NULL,
	"payment_method" text NOT NULL,
	"gateway" text NOT NULL,
	"order_source" text NOT NULL,
	"total_mrp" integer NOT NULL,
	"total_sp" integer NOT NULL,
	"coupon_id" integer,
	"coupon_code" text,
	"coupon_discount" integer DEFAULT 0 NOT NULL,
	"shipping_fee" integer DEFAULT 0 NOT NULL,
	"care_package_total" integer DEFAULT 0 NOT NULL,
	"final_payable" integer NOT NULL,
	"shipping_district" text,
	"shipping_mobile_num" text,
	"shipping_address_line1" text,
	"shipping_address_line2" text,
	"shipping_city" text,
	"shipping_state" text,
	"shipping_postal_code" text,
	"shipping_landmark" text,
	"shipping_latitude" double precision,
	"shipping_longitude" double precision,
	"receiver" text,
	"contact_number" text,
	"fulfillment_status" text,
	"cart_id" uuid,
	"return_url" text,
	"cod_payment_id" uuid,
	"payment_reference" text,
	"refund_reason" text,
	"refund_remarks" text,
	"paid_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"refund_requested_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_fulfillment_history" ADD CONSTRAINT "order_fulfillment_history_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_requests" ADD CONSTRAINT "order_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD CONSTRAINT "order_status_history_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_fulfillment_history_order_idx" ON "order_fulfillment_history" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_items_order_idx" ON "order_items" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_requests_order_idx" ON "order_requests" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_status_history_order_idx" ON "order_status_history" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_number_key" ON "orders" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "orders_customer_created_idx" ON "orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_unpaid_idx" ON "orders" USING btree ("status","payment_method","created_at");