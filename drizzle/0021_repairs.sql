CREATE TABLE "repair_request_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"repair_request_id" integer NOT NULL,
	"brand_id" integer,
	"custom_brand_name" text,
	"laptop_model" text NOT NULL,
	"problem_description" text NOT NULL,
	"order_item_id" integer,
	CONSTRAINT "repair_request_devices_one_brand" CHECK (("repair_request_devices"."brand_id" is null) <> ("repair_request_devices"."custom_brand_name" is null))
);
--> statement-breakpoint
CREATE TABLE "repair_request_status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"repair_request_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"notes" text,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repair_request_status_history_pair_allowed" CHECK (("repair_request_status_history"."from_status", "repair_request_status_history"."to_status") in (('request_received', 'picked_up'), ('request_received', 'dropped_off'), ('request_received', 'cancelled'), ('picked_up', 'under_repair'), ('picked_up', 'cancelled'), ('dropped_off', 'under_repair'), ('dropped_off', 'cancelled'), ('under_repair', 'repaired'), ('under_repair', 'unrepairable'), ('repaired', 'returned'), ('unrepairable', 'returned')))
);
--> statement-breakpoint
CREATE TABLE "repair_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" uuid NOT NULL,
	"ticket_number" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_id" integer,
	"collection_method" text NOT NULL,
	"source_type" text NOT NULL,
	"shared_description" text NOT NULL,
	"status" text DEFAULT 'request_received' NOT NULL,
	"admin_notes" text,
	"estimated_delivery_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repair_requests_ticket_number_format" CHECK ("repair_requests"."ticket_number" ~ '^TR-[0-9A-Z]{8}$'),
	CONSTRAINT "repair_requests_status_valid" CHECK ("repair_requests"."status" in ('request_received', 'picked_up', 'dropped_off', 'under_repair', 'repaired', 'unrepairable', 'returned', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "repair_request_devices" ADD CONSTRAINT "repair_request_devices_repair_request_id_repair_requests_id_fk" FOREIGN KEY ("repair_request_id") REFERENCES "public"."repair_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_request_devices" ADD CONSTRAINT "repair_request_devices_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_request_devices" ADD CONSTRAINT "repair_request_devices_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_request_status_history" ADD CONSTRAINT "repair_request_status_history_repair_request_id_repair_requests_id_fk" FOREIGN KEY ("repair_request_id") REFERENCES "public"."repair_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_request_status_history" ADD CONSTRAINT "repair_request_status_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_requests" ADD CONSTRAINT "repair_requests_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_requests" ADD CONSTRAINT "repair_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repair_request_devices_request_idx" ON "repair_request_devices" USING btree ("repair_request_id","id");--> statement-breakpoint
CREATE INDEX "repair_request_status_history_request_idx" ON "repair_request_status_history" USING btree ("repair_request_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "repair_requests_public_id_unique" ON "repair_requests" USING btree ("public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "repair_requests_ticket_number_unique" ON "repair_requests" USING btree ("ticket_number");--> statement-breakpoint
CREATE INDEX "repair_requests_customer_created_idx" ON "repair_requests" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "repair_requests_status_created_idx" ON "repair_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "repair_requests_created_idx" ON "repair_requests" USING btree ("created_at");