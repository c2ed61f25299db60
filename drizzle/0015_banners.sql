CREATE TABLE "banner_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"placement_id" integer NOT NULL,
	"banner_id" integer NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"weight" integer DEFAULT 100 NOT NULL,
	"is_fallback" boolean DEFAULT false NOT NULL,
	"fallback_priority" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"override_cta_label" text,
	"override_cta_url" text,
	"override_headline" text,
	"override_subheadline" text,
	"transition_duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banner_assignments_triple_unique" UNIQUE("campaign_id","placement_id","banner_id")
);
--> statement-breakpoint
CREATE TABLE "banner_clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"correlation_id" text NOT NULL,
	"banner_id" integer NOT NULL,
	"placement_id" integer NOT NULL,
	"campaign_id" integer,
	"session_id" text,
	"user_id" uuid,
	"device_type" text,
	"country_code" text,
	"page_url" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"destination_url" text,
	CONSTRAINT "banner_clicks_correlation_unique" UNIQUE("correlation_id")
);
--> statement-breakpoint
CREATE TABLE "banner_daily_stats" (
	"banner_id" integer NOT NULL,
	"placement_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"stat_date" date NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"spend_paisa" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banner_daily_stats_banner_id_placement_id_campaign_id_stat_date_pk" PRIMARY KEY("banner_id","placement_id","campaign_id","stat_date"),
	CONSTRAINT "banner_daily_stats_counts_check" CHECK ("banner_daily_stats"."impressions" >= 0 AND "banner_daily_stats"."clicks" >= 0 AND ("banner_daily_stats"."spend_paisa" IS NULL OR "banner_daily_stats"."spend_paisa" >= 0))
);
--> statement-breakpoint
CREATE TABLE "banner_impressions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"correlation_id" text NOT NULL,
	"banner_id" integer NOT NULL,
	"placement_id" integer NOT NULL,
	"campaign_id" integer,
	"session_id" text,
	"user_id" uuid,
	"device_type" text,
	"country_code" text,
	"page_url" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"referrer_url" text,
	CONSTRAINT "banner_impressions_correlation_unique" UNIQUE("correlation_id")
);
--> statement-breakpoint
CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"source" text DEFAULT 'internal' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"primary_image_url" text NOT NULL,
	"primary_image_alt" text,
	"mobile_image_url" text,
	"video_url" text,
	"media_variants" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"headline" text,
	"subheadline" text,
	"cta_label" text,
	"cta_url" text,
	"cta_open_new_tab" boolean DEFAULT false NOT NULL,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_content" text,
	"brand_id" integer,
	"category_id" integer,
	"product_id" integer,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bg_color" text,
	"priority" integer DEFAULT 0 NOT NULL,
	"seo_id" uuid,
	"publish_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"schedule_timezone" text DEFAULT 'UTC' NOT NULL,
	"recurrence_rule" text,
	"recurrence_window_start" text,
	"recurrence_window_end" text,
	"schedule_status" text DEFAULT 'evergreen' NOT NULL,
	"is_evergreen_fallback" boolean DEFAULT false NOT NULL,
	"fallback_placeholder_url" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "banners_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "banners_source_check" CHECK ("banners"."source" IN ('internal', 'sponsored', 'affiliate', 'system')),
	CONSTRAINT "banners_schedule_status_check" CHECK ("banners"."schedule_status" IN ('draft', 'evergreen', 'scheduled', 'active', 'expired')),
	CONSTRAINT "banners_priority_check" CHECK ("banners"."priority" >= 0),
	CONSTRAINT "banners_schedule_window_check" CHECK ("banners"."publish_at" IS NULL OR "banners"."expires_at" IS NULL OR "banners"."publish_at" < "banners"."expires_at")
);
--> statement-breakpoint
CREATE TABLE "banner_campaign_placements" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"placement_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banner_campaign_placements_pair_unique" UNIQUE("campaign_id","placement_id")
);
--> statement-breakpoint
CREATE TABLE "banner_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"source" text DEFAULT 'internal' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"budget_total_paisa" bigint,
	"budget_daily_paisa" bigint,
	"impression_cap" integer,
	"click_cap" integer,
	"advertiser_name" text,
	"advertiser_contact" text,
	"contract_ref" text,
	"priority" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "banner_campaigns_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "banner_campaigns_source_check" CHECK ("banner_campaigns"."source" IN ('internal', 'sponsored', 'affiliate', 'system')),
	CONSTRAINT "banner_campaigns_status_check" CHECK ("banner_campaigns"."status" IN ('draft', 'scheduled', 'active', 'paused', 'ended', 'cancelled')),
	CONSTRAINT "banner_campaigns_window_check" CHECK ("banner_campaigns"."starts_at" IS NULL OR "banner_campaigns"."ends_at" IS NULL OR "banner_campaigns"."starts_at" < "banner_campaigns"."ends_at")
);
--> statement-breakpoint
CREATE TABLE "banner_placements" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"label" text NOT NULL,
	"layout_type" text NOT NULL,
	"page_context" text,
	"max_banners" integer DEFAULT 1 NOT NULL,
	"recommended_width" integer,
	"recommended_height" integer,
	"recommended_aspect_ratio" text,
	"notes" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"fallback_placeholder_url" text,
	"allow_partial_render" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banner_placements_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "banner_placements_slug_unique" UNIQUE("slug"),
	CONSTRAINT "banner_placements_layout_check" CHECK ("banner_placements"."layout_type" IN ('full_slider', 'full_static', 'half_pair', 'quarter_grid', 'sidebar_stack', 'sidebar_single', 'interstitial', 'popup', 'inline_card', 'sticky_bar')),
	CONSTRAINT "banner_placements_max_check" CHECK ("banner_placements"."max_banners" > 0 AND "banner_placements"."sort_order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "banner_targeting_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" uuid NOT NULL,
	"campaign_id" integer NOT NULL,
	"rule_type" text NOT NULL,
	"operator" text NOT NULL,
	"value" jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banner_targeting_rules_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "banner_targeting_rules_type_check" CHECK ("banner_targeting_rules"."rule_type" IN ('device', 'country', 'user_segment', 'login_state', 'language', 'hour_of_day', 'day_of_week', 'new_visitor', 'referrer_domain'))
);
--> statement-breakpoint
ALTER TABLE "banner_assignments" ADD CONSTRAINT "banner_assignments_banner_id_banners_id_fk" FOREIGN KEY ("banner_id") REFERENCES "public"."banners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banner_assignments" ADD CONSTRAINT "banner_assignments_link_fk" FOREIGN KEY ("campaign_id","placement_id") REFERENCES "public"."banner_campaign_placements"("campaign_id","placement_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_seo_id_seo_records_id_fk" FOREIGN KEY ("seo_id") REFERENCES "public"."seo_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banner_campaign_placements" ADD CONSTRAINT "banner_campaign_placements_campaign_id_banner_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."banner_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banner_campaign_placements" ADD CONSTRAINT "banner_campaign_placements_placement_id_banner_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."banner_placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banner_targeting_rules" ADD CONSTRAINT "banner_targeting_rules_campaign_id_banner_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."banner_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "banner_assignments_placement_idx" ON "banner_assignments" USING btree ("placement_id");--> statement-breakpoint
CREATE INDEX "banner_clicks_occurred_idx" ON "banner_clicks" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "banner_daily_stats_date_idx" ON "banner_daily_stats" USING btree ("stat_date");--> statement-breakpoint
CREATE INDEX "banner_impressions_occurred_idx" ON "banner_impressions" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "banners_schedule_idx" ON "banners" USING btree ("schedule_status");--> statement-breakpoint
CREATE INDEX "banner_campaign_placements_placement_idx" ON "banner_campaign_placements" USING btree ("placement_id");--> statement-breakpoint
CREATE INDEX "banner_campaigns_status_idx" ON "banner_campaigns" USING btree ("status");--> statement-breakpoint
CREATE INDEX "banner_targeting_rules_campaign_idx" ON "banner_targeting_rules" USING btree ("campaign_id");