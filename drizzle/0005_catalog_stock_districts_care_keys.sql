CREATE TABLE "care_package_subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"care_package_id" integer NOT NULL,
	"tier_id" integer NOT NULL,
	"product_id" integer,
	"order_item_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"duration_months" integer NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_package_subscriptions_status_check" CHECK ("care_package_subscriptions"."status" IN ('pending', 'active', 'expired', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "care_package_tiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"care_package_id" integer NOT NULL,
	"label" text NOT NULL,
	"duration_months" integer NOT NULL,
	"price" bigint NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_package_tiers_duration_check" CHECK ("care_package_tiers"."duration_months" > 0),
	CONSTRAINT "care_package_tiers_price_check" CHECK ("care_package_tiers"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "care_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"brand_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"product_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"min_price" bigint,
	"max_price" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_packages_price_range_check" CHECK ("care_packages"."min_price" IS NULL OR "care_packages"."max_price" IS NULL OR "care_packages"."min_price" <= "care_packages"."max_price")
);
--> statement-breakpoint
CREATE TABLE "digital_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"value_encrypted" text NOT NULL,
	"value_digest" text NOT NULL,
	"masked_value" text NOT NULL,
	"status" text DEFAULT 'available' NOT NULL,
	"order_item_id" text,
	"assigned_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digital_keys_product_digest_unique" UNIQUE("product_id","value_digest"),
	CONSTRAINT "digital_keys_status_check" CHECK ("digital_keys"."status" IN ('available', 'assigned', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "shipping_districts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"province" text NOT NULL,
	"shipping_fee" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_districts_name_unique" UNIQUE("name"),
	CONSTRAINT "shipping_districts_fee_check" CHECK ("shipping_districts"."shipping_fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_stock" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_stock_reserved_check" CHECK ("product_stock"."reserved" >= 0),
	CONSTRAINT "product_stock_on_hand_check" CHECK ("product_stock"."on_hand" >= "product_stock"."reserved")
);
--> statement-breakpoint
CREATE TABLE "stock_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"source" text NOT NULL,
	"reason" text NOT NULL,
	"on_hand_delta" integer NOT NULL,
	"reserved_delta" integer NOT NULL,
	"on_hand" integer NOT NULL,
	"reserved" integer NOT NULL,
	"actor_id" uuid,
	"owner_type" text,
	"owner_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_ledger_source_check" CHECK ("stock_ledger"."source" IN ('adjustment', 'reservation', 'release', 'finalize'))
);
--> statement-breakpoint
CREATE TABLE "stock_reservations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_reservations_owner_product_unique" UNIQUE("owner_type","owner_id","product_id"),
	CONSTRAINT "stock_reservations_owner_check" CHECK ("stock_reservations"."owner_type" IN ('cart', 'order')),
	CONSTRAINT "stock_reservations_quantity_check" CHECK ("stock_reservations"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_care_package_id_care_packages_id_fk" FOREIGN KEY ("care_package_id") REFERENCES "public"."care_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_tier_id_care_package_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."care_package_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_tiers" ADD CONSTRAINT "care_package_tiers_care_package_id_care_packages_id_fk" FOREIGN KEY ("care_package_id") REFERENCES "public"."care_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digital_keys" ADD CONSTRAINT "digital_keys_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_stock" ADD CONSTRAINT "product_stock_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_ledger" ADD CONSTRAINT "stock_ledger_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_ledger" ADD CONSTRAINT "stock_ledger_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "care_package_subscriptions_customer_idx" ON "care_package_subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "care_package_subscriptions_order_item_idx" ON "care_package_subscriptions" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "care_package_subscriptions_ends_idx" ON "care_package_subscriptions" USING btree ("status","ends_at");--> statement-breakpoint
CREATE INDEX "care_package_tiers_package_idx" ON "care_package_tiers" USING btree ("care_package_id");--> statement-breakpoint
CREATE INDEX "digital_keys_product_status_idx" ON "digital_keys" USING btree ("product_id","status","created_at");--> statement-breakpoint
CREATE INDEX "digital_keys_order_item_idx" ON "digital_keys" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "shipping_districts_province_idx" ON "shipping_districts" USING btree ("province");--> statement-breakpoint
CREATE INDEX "stock_ledger_product_idx" ON "stock_ledger" USING btree ("product_id","id");--> statement-breakpoint
CREATE INDEX "stock_reservations_expires_idx" ON "stock_reservations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stock_reservations_product_idx" ON "stock_reservations" USING btree ("product_id");