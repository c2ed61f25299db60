CREATE TABLE "product_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"order_item_id" integer,
	"order_id" integer,
	"customer_id" uuid,
	"review_source" text NOT NULL,
	"reviewer_name" text,
	"reviewer_image_url" text,
	"rating" integer NOT NULL,
	"comment" text,
	"status" text NOT NULL,
	"created_by_admin_id" uuid,
	"moderated_by_admin_id" uuid,
	"moderated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "product_reviews_rating_check" CHECK ("product_reviews"."rating" BETWEEN 1 AND 5),
	CONSTRAINT "product_reviews_status_check" CHECK ("product_reviews"."status" IN ('pending', 'approved', 'rejected')),
	CONSTRAINT "product_reviews_source_check" CHECK ("product_reviews"."review_source" IN ('customer', 'admin_seeded')),
	CONSTRAINT "product_reviews_source_fields_check" CHECK (("product_reviews"."review_source" = 'customer' AND "product_reviews"."customer_id" IS NOT NULL AND "product_reviews"."order_item_id" IS NOT NULL
          AND "product_reviews"."reviewer_name" IS NULL AND "product_reviews"."reviewer_image_url" IS NULL)
        OR ("product_reviews"."review_source" = 'admin_seeded' AND "product_reviews"."customer_id" IS NULL AND "product_reviews"."reviewer_name" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "testimonials" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rating" integer NOT NULL,
	"comment" text NOT NULL,
	"image_url" text,
	"is_visible" boolean DEFAULT true NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "testimonials_rating_check" CHECK ("testimonials"."rating" BETWEEN 1 AND 5),
	CONSTRAINT "testimonials_name_check" CHECK (length(btrim("testimonials"."name")) BETWEEN 1 AND 120),
	CONSTRAINT "testimonials_comment_check" CHECK (length(btrim("testimonials"."comment")) > 0)
);
--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_created_by_admin_id_users_id_fk" FOREIGN KEY ("created_by_admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_moderated_by_admin_id_users_id_fk" FOREIGN KEY ("moderated_by_admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_reviews_order_item_key" ON "product_reviews" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "product_reviews_public_idx" ON "product_reviews" USING btree ("product_id","status","created_at");--> statement-breakpoint
CREATE INDEX "product_reviews_customer_idx" ON "product_reviews" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "testimonials_visible_order_idx" ON "testimonials" USING btree ("is_visible","display_order");