CREATE TABLE "product_listing_count" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"products" bigint NOT NULL,
	CONSTRAINT "product_listing_count_single" CHECK ("product_listing_count"."id")
);
--> statement-breakpoint
-- The product search's typo branch (`similarity(title, q) >= threshold`, pg_trgm's `%`).
-- The plain trigram index cannot decide it: it knows how many of the search's trigrams a title
-- has, not how many the title has in all, so thousands of candidates were rechecked with
-- similarity(). Here each title trigram is tagged with the title's trigram count ("sin|31"):
-- for a title of n trigrams the threshold needs at least k(n) of the search's trigrams, so the
-- title must hold at least one of the search's (count - k(n) + 1) rarest trigrams tagged "|n".
-- The search asks the index for exactly those keys (`titleSearchKeys` in the repository) and
-- then checks similarity() on the few candidates: the same matches, far fewer rechecks.
-- `SET search_path FROM CURRENT` finds pg_trgm's show_trgm during a restore as well.
CREATE FUNCTION product_title_keys(title text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT AS $$
DECLARE
  trigrams text[] := show_trgm(title);
  n int := cardinality(trigrams);
BEGIN
  RETURN array(SELECT t || '|' || n FROM unnest(trigrams) AS t);
END
$$;
--> statement-breakpoint
CREATE INDEX "products_title_keys_idx" ON "products" USING gin (product_title_keys("title"));
--> statement-breakpoint
-- How common each title trigram is (pg_stats_ext_exprs, refreshed by ANALYZE): the search asks
-- for the rarest trigrams first. Stale or missing statistics only make it ask for more keys.
CREATE STATISTICS products_title_trigrams ON (show_trgm("title")) FROM "products";
--> statement-breakpoint
-- The public catalog's count (published and sellable products), kept by statement triggers in
-- the same transaction as the product write: the plain public list reads its total here
-- instead of counting every visible row. A statement that changes no product's visibility
-- (most updates: price, title, review aggregates) does not touch the row, so it takes no lock.
INSERT INTO "product_listing_count" ("id", "products")
  SELECT true, count(*) FROM "products" WHERE "status" = 'published' AND "is_sellable";
--> statement-breakpoint
CREATE FUNCTION product_listing_count_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint := 0;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE product_listing_count SET products = 0;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT delta - count(*) INTO delta FROM old_rows WHERE status = 'published' AND is_sellable;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT delta + count(*) INTO delta FROM new_rows WHERE status = 'published' AND is_sellable;
  END IF;
  IF delta <> 0 THEN
    UPDATE product_listing_count SET products = products + delta;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_listing_count_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_count_sync();
--> statement-breakpoint
CREATE TRIGGER products_listing_count_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_count_sync();
--> statement-breakpoint
CREATE TRIGGER products_listing_count_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_listing_count_sync();
--> statement-breakpoint
CREATE TRIGGER products_listing_count_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION product_listing_count_sync();
--> statement-breakpoint
-- Fills the new trigram statistics now rather than at autovacuum's next analyze.
ANALYZE "products";
