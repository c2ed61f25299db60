CREATE TABLE "emi_banks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"display_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "emi_banks_name_not_blank" CHECK (length(btrim("emi_banks"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "emi_config" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"is_enabled" boolean NOT NULL,
	"periods" integer[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "emi_config_single_row" CHECK ("emi_config"."id" = 1),
	CONSTRAINT "emi_config_periods_range" CHECK (1 <= all("emi_config"."periods") and 60 >= all("emi_config"."periods"))
);
--> statement-breakpoint
CREATE TABLE "emi_inquiries" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"product_title" text NOT NULL,
	"product_sp" integer NOT NULL,
	"customer_name" text NOT NULL,
	"customer_email" text NOT NULL,
	"customer_mobile" text NOT NULL,
	"has_credit_card" boolean NOT NULL,
	"down_payment_amount" integer NOT NULL,
	"message" text,
	"status" text DEFAULT 'new' NOT NULL,
	"status_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "emi_inquiries_down_payment_not_negative" CHECK ("emi_inquiries"."down_payment_amount" >= 0),
	CONSTRAINT "emi_inquiries_status_valid" CHECK ("emi_inquiries"."status" in ('new', 'contacted', 'approved', 'rejected', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "emi_inquiry_banks" (
	"inquiry_id" integer NOT NULL,
	"bank_id" integer NOT NULL,
	CONSTRAINT "emi_inquiry_banks_inquiry_id_bank_id_pk" PRIMARY KEY("inquiry_id","bank_id")
);
--> statement-breakpoint
ALTER TABLE "emi_inquiries" ADD CONSTRAINT "emi_inquiries_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emi_inquiry_banks" ADD CONSTRAINT "emi_inquiry_banks_inquiry_id_emi_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."emi_inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emi_inquiry_banks" ADD CONSTRAINT "emi_inquiry_banks_bank_id_emi_banks_id_fk" FOREIGN KEY ("bank_id") REFERENCES "public"."emi_banks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emi_banks_active_order_idx" ON "emi_banks" USING btree ("is_active","display_order");--> statement-breakpoint
CREATE INDEX "emi_inquiries_status_created_idx" ON "emi_inquiries" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "emi_inquiries_created_idx" ON "emi_inquiries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "emi_inquiry_banks_bank_idx" ON "emi_inquiry_banks" USING btree ("bank_id");