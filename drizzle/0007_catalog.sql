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
CREATE TABLE "product_slug_history" (
	"slug" text PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_tags" (
	"product_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_tags_product_id_tag_id_pk" PRIMARY KEY("product_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"product_kind" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"is_sellable" boolean DEFAULT true NOT NULL,
	"mrp" bigint NOT NULL,
	"sp" bigint DEFAULT 0 NOT NULL,
	"effective_price" bigint GENERATED ALWAYS AS (CASE WHEN sp > 0 THEN sp ELSE mrp END) STORED NOT NULL,
	"category_id" integer,
	"brand_id" integer,
	"seo_id" uuid,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"specifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"care_package_tier_id" integer,
	"average_rating" numeric(3, 2),
	"review_count" integer DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_slug_unique" UNIQUE("slug"),
	CONSTRAINT "products_kind_check" CHECK ("products"."product_kind" IN ('physical', 'digital', 'care_package')),
	CONSTRAINT "products_status_check" CHECK ("products"."status" IN ('draft', 'published', 'archived')),
	CONSTRAINT "products_price_check" CHECK ("products"."mrp" >= 0 AND "products"."sp" >= 0)
);
--> statement-breakpoint
CREATE TABLE "seo_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"meta_title" text,
	"meta_description" text,
	"meta_keywords" text,
	"canonical_url" text,
	"robots_index" boolean DEFAULT true NOT NULL,
	"robots_follow" boolean DEFAULT true NOT NULL,
	"robots_advanced" text,
	"og_title" text,
	"og_description" text,
	"og_type" text,
	"og_url" text,
	"og_image_url" text,
	"og_site_name" text,
	"social_card" text,
	"social_site" text,
	"social_creator" text,
	"social_title" text,
	"social_description" text,
	"social_image_url" text,
	"alternates" jsonb,
	"structured_data_json_ld" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
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
CREATE TABLE "brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"logo_url" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brands_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"parent_id" integer,
	"description" text,
	"image_url" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"seo_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tags_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_care_package_id_care_packages_id_fk" FOREIGN KEY ("care_package_id") REFERENCES "public"."care_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_tier_id_care_package_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."care_package_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_subscriptions" ADD CONSTRAINT "care_package_subscriptions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_package_tiers" ADD CONSTRAINT "care_package_tiers_care_package_id_care_packages_id_fk" FOREIGN KEY ("care_package_id") REFERENCES "public"."care_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digital_keys" ADD CONSTRAINT "digital_keys_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_slug_history" ADD CONSTRAINT "product_slug_history_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tags" ADD CONSTRAINT "product_tags_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tags" ADD CONSTRAINT "product_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_seo_id_seo_records_id_fk" FOREIGN KEY ("seo_id") REFERENCES "public"."seo_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_stock" ADD CONSTRAINT "product_stock_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_ledger" ADD CONSTRAINT "stock_ledger_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_ledger" ADD CONSTRAINT "stock_ledger_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_seo_id_seo_records_id_fk" FOREIGN KEY ("seo_id") REFERENCES "public"."seo_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "care_package_subscriptions_customer_idx" ON "care_package_subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "care_package_subscriptions_order_item_idx" ON "care_package_subscriptions" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "care_package_subscriptions_ends_idx" ON "care_package_subscriptions" USING btree ("status","ends_at");--> statement-breakpoint
CREATE INDEX "care_package_tiers_package_idx" ON "care_package_tiers" USING btree ("care_package_id");--> statement-breakpoint
CREATE INDEX "digital_keys_product_status_idx" ON "digital_keys" USING btree ("product_id","status","created_at");--> statement-breakpoint
CREATE INDEX "digital_keys_order_item_idx" ON "digital_keys" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "product_slug_history_product_idx" ON "product_slug_history" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_tags_tag_idx" ON "product_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "products_title_trgm_idx" ON "products" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_description_trgm_idx" ON "products" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "products_brand_idx" ON "products" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "products_listing_created_idx" ON "products" USING btree ("status","is_sellable","created_at");--> statement-breakpoint
CREATE INDEX "products_listing_price_idx" ON "products" USING btree ("status","is_sellable","effective_price");--> statement-breakpoint
CREATE INDEX "shipping_districts_province_idx" ON "shipping_districts" USING btree ("province");--> statement-breakpoint
CREATE INDEX "stock_ledger_product_idx" ON "stock_ledger" USING btree ("product_id","id");--> statement-breakpoint
CREATE INDEX "stock_reservations_expires_idx" ON "stock_reservations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stock_reservations_product_idx" ON "stock_reservations" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id");