CREATE TABLE "content_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_key" varchar(80) NOT NULL,
	"title" varchar(255) NOT NULL,
	"seo_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_pages_page_key_unique" UNIQUE("page_key"),
	CONSTRAINT "content_pages_seo_id_unique" UNIQUE("seo_id"),
	CONSTRAINT "content_pages_page_key_check" CHECK ("content_pages"."page_key" in ('home', 'about', 'faq', 'privacy_policy', 'terms_of_service', 'products_thangkas', 'products_singing_bowls', 'products_statues', 'products_jewellery', 'global_footer'))
);
--> statement-breakpoint
CREATE TABLE "content_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"section_key" varchar(80) NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"payload_json" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_sections_page_section_unique" UNIQUE("page_id","section_key"),
	CONSTRAINT "content_sections_position_check" CHECK ("content_sections"."position" >= 0)
);
--> statement-breakpoint
ALTER TABLE "content_pages" ADD CONSTRAINT "content_pages_seo_id_seo_records_id_fk" FOREIGN KEY ("seo_id") REFERENCES "public"."seo_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_sections" ADD CONSTRAINT "content_sections_page_id_content_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."content_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_sections_page_order_idx" ON "content_sections" USING btree ("page_id","position","id");