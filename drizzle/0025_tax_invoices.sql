CREATE TABLE "tax_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"sequence" integer NOT NULL,
	"fiscal_year" text NOT NULL,
	"abbreviated" boolean DEFAULT false NOT NULL,
	"order_id" integer NOT NULL,
	"order_number" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"reference_document_id" integer,
	"reference_number" text,
	"reason" text,
	"seller_name" text NOT NULL,
	"seller_address" text NOT NULL,
	"seller_pan" text,
	"buyer_name" text NOT NULL,
	"buyer_pan" text,
	"buyer_address" text,
	"payment_method" text NOT NULL,
	"lines" jsonb NOT NULL,
	"vat_rate_percent" integer NOT NULL,
	"discount_amount" integer NOT NULL,
	"taxable_amount" integer NOT NULL,
	"vat_amount" integer NOT NULL,
	"exempt_amount" integer NOT NULL,
	"total_amount" integer NOT NULL,
	"bs_date" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"issued_by_admin_id" uuid,
	"issued_by_name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"print_count" integer DEFAULT 0 NOT NULL,
	"last_printed_at" timestamp with time zone,
	"sync_status" text NOT NULL,
	"sync_attempts" integer DEFAULT 0 NOT NULL,
	"last_sync_reply" text,
	"last_sync_at" timestamp with time zone,
	CONSTRAINT "tax_documents_kind_check" CHECK ("tax_documents"."kind" IN ('invoice', 'credit_note')),
	CONSTRAINT "tax_documents_figures_check" CHECK ("tax_documents"."taxable_amount" + "tax_documents"."vat_amount" + "tax_documents"."exempt_amount" = "tax_documents"."total_amount")
);
--> statement-breakpoint
CREATE TABLE "tax_number_series" (
	"kind" text NOT NULL,
	"fiscal_year" text NOT NULL,
	"next_sequence" integer NOT NULL,
	CONSTRAINT "tax_number_series_kind_fiscal_year_pk" PRIMARY KEY("kind","fiscal_year")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_pan" text;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_series_key" ON "tax_documents" USING btree ("kind","fiscal_year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_order_key" ON "tax_documents" USING btree ("kind","order_id");--> statement-breakpoint
CREATE INDEX "tax_documents_issued_idx" ON "tax_documents" USING btree ("kind","issued_at");--> statement-breakpoint
CREATE INDEX "tax_documents_sync_idx" ON "tax_documents" USING btree ("sync_status");--> statement-breakpoint
-- IRD e-billing: an issued document is kept as issued. Only the print and sync bookkeeping
-- may change; any other column's UPDATE, and any DELETE, is refused by the database itself.
CREATE FUNCTION tax_documents_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bookkeeping text[] := ARRAY['print_count', 'last_printed_at', 'sync_status', 'sync_attempts', 'last_sync_reply', 'last_sync_at'];
BEGIN
  IF TG_OP IN ('DELETE', 'TRUNCATE') THEN
    RAISE EXCEPTION 'tax documents are locked: they cannot be deleted' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF (to_jsonb(NEW) - bookkeeping) IS DISTINCT FROM (to_jsonb(OLD) - bookkeeping) THEN
    RAISE EXCEPTION 'tax document % is locked: only print and sync bookkeeping may change', OLD.number USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tax_documents_locked BEFORE UPDATE OR DELETE ON tax_documents
  FOR EACH ROW EXECUTE FUNCTION tax_documents_refuse_change();
--> statement-breakpoint
CREATE TRIGGER tax_documents_no_truncate BEFORE TRUNCATE ON tax_documents
  FOR EACH STATEMENT EXECUTE FUNCTION tax_documents_refuse_change();
