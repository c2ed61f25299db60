CREATE TABLE "feedback_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"category" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"reviewed_by_admin_id" uuid,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feedback_submissions_subject_not_blank" CHECK (length(btrim("feedback_submissions"."subject")) > 0),
	CONSTRAINT "feedback_submissions_message_not_blank" CHECK (length(btrim("feedback_submissions"."message")) > 0)
);
--> statement-breakpoint
CREATE TABLE "support_inquiries" (
	"id" serial PRIMARY KEY NOT NULL,
	"tracking_code" text NOT NULL,
	"customer_id" uuid,
	"guest_name" text,
	"guest_email" text,
	"guest_phone" text,
	"email_verified_at" timestamp with time zone,
	"category" text NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_admin_id" uuid,
	"support_request_id" integer,
	"last_visitor_message_at" timestamp with time zone,
	"last_admin_message_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_inquiries_subject_not_blank" CHECK (length(btrim("support_inquiries"."subject")) > 0),
	CONSTRAINT "support_inquiries_closed_at_matches" CHECK (("support_inquiries"."status" in ('closed', 'spam')) = ("support_inquiries"."closed_at" is not null)),
	CONSTRAINT "support_inquiries_verified_needs_email" CHECK ("support_inquiries"."email_verified_at" is null or "support_inquiries"."guest_email" is not null)
);
--> statement-breakpoint
CREATE TABLE "support_inquiry_access_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"support_inquiry_id" integer NOT NULL,
	"token_digest" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_inquiry_email_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"support_inquiry_id" integer NOT NULL,
	"email" text NOT NULL,
	"code_digest" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_inquiry_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"support_inquiry_id" integer NOT NULL,
	"author_type" text NOT NULL,
	"author_customer_id" uuid,
	"author_admin_id" uuid,
	"author_name" text NOT NULL,
	"author_image" text,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_inquiry_messages_body_not_blank" CHECK (length(btrim("support_inquiry_messages"."body")) > 0)
);
--> statement-breakpoint
CREATE TABLE "support_request_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"support_request_id" integer NOT NULL,
	"author_type" text NOT NULL,
	"author_customer_id" uuid,
	"author_admin_id" uuid,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_request_messages_body_not_blank" CHECK (length(btrim("support_request_messages"."body")) > 0)
);
--> statement-breakpoint
CREATE TABLE "support_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"category" text NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_admin_id" uuid,
	"resolution_note" text,
	"resolved_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"last_customer_message_at" timestamp with time zone,
	"last_admin_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_requests_subject_not_blank" CHECK (length(btrim("support_requests"."subject")) > 0),
	CONSTRAINT "support_requests_closed_at_matches" CHECK (("support_requests"."status" = 'closed') = ("support_requests"."closed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "feedback_submissions" ADD CONSTRAINT "feedback_submissions_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_submissions" ADD CONSTRAINT "feedback_submissions_reviewed_by_admin_id_users_id_fk" FOREIGN KEY ("reviewed_by_admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiries" ADD CONSTRAINT "support_inquiries_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiries" ADD CONSTRAINT "support_inquiries_assigned_admin_id_users_id_fk" FOREIGN KEY ("assigned_admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiries" ADD CONSTRAINT "support_inquiries_support_request_id_support_requests_id_fk" FOREIGN KEY ("support_request_id") REFERENCES "public"."support_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiry_access_tokens" ADD CONSTRAINT "support_inquiry_access_tokens_support_inquiry_id_support_inquiries_id_fk" FOREIGN KEY ("support_inquiry_id") REFERENCES "public"."support_inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiry_email_codes" ADD CONSTRAINT "support_inquiry_email_codes_support_inquiry_id_support_inquiries_id_fk" FOREIGN KEY ("support_inquiry_id") REFERENCES "public"."support_inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiry_messages" ADD CONSTRAINT "support_inquiry_messages_support_inquiry_id_support_inquiries_id_fk" FOREIGN KEY ("support_inquiry_id") REFERENCES "public"."support_inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiry_messages" ADD CONSTRAINT "support_inquiry_messages_author_customer_id_users_id_fk" FOREIGN KEY ("author_customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_inquiry_messages" ADD CONSTRAINT "support_inquiry_messages_author_admin_id_users_id_fk" FOREIGN KEY ("author_admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_request_messages" ADD CONSTRAINT "support_request_messages_support_request_id_support_requests_id_fk" FOREIGN KEY ("support_request_id") REFERENCES "public"."support_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_request_messages" ADD CONSTRAINT "support_request_messages_author_customer_id_users_id_fk" FOREIGN KEY ("author_customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_request_messages" ADD CONSTRAINT "support_request_messages_author_admin_id_users_id_fk" FOREIGN KEY ("author_admin_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_assigned_admin_id_users_id_fk" FOREIGN KEY ("assigned_admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_submissions_status_idx" ON "feedback_submissions" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "support_inquiries_tracking_code_unique" ON "support_inquiries" USING btree ("tracking_code");--> statement-breakpoint
CREATE INDEX "support_inquiries_customer_idx" ON "support_inquiries" USING btree ("customer_id","updated_at");--> statement-breakpoint
CREATE INDEX "support_inquiries_status_idx" ON "support_inquiries" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "support_inquiries_assigned_idx" ON "support_inquiries" USING btree ("assigned_admin_id");--> statement-breakpoint
CREATE INDEX "support_inquiries_request_idx" ON "support_inquiries" USING btree ("support_request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "support_inquiry_access_tokens_digest_unique" ON "support_inquiry_access_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "support_inquiry_access_tokens_inquiry_idx" ON "support_inquiry_access_tokens" USING btree ("support_inquiry_id");--> statement-breakpoint
CREATE INDEX "support_inquiry_email_codes_inquiry_idx" ON "support_inquiry_email_codes" USING btree ("support_inquiry_id");--> statement-breakpoint
CREATE INDEX "support_inquiry_messages_inquiry_idx" ON "support_inquiry_messages" USING btree ("support_inquiry_id","id");--> statement-breakpoint
CREATE INDEX "support_request_messages_request_idx" ON "support_request_messages" USING btree ("support_request_id","id");--> statement-breakpoint
CREATE INDEX "support_requests_customer_idx" ON "support_requests" USING btree ("customer_id","updated_at");--> statement-breakpoint
CREATE INDEX "support_requests_status_idx" ON "support_requests" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "support_requests_assigned_idx" ON "support_requests" USING btree ("assigned_admin_id");