-- The number of distinct trigrams in each title (what `show_trgm` returns, as similarity()
-- counts them). A title of n trigrams and a search of m can reach at most
-- min(n, m) / max(n, m), so the search's relevance order finds its first page from this bound
-- and computes similarity() for only the few matches that can still belong there, instead of
-- for every match. Stored and kept by PostgreSQL with every write of the title.
ALTER TABLE "products" ADD COLUMN "title_trigram_count" smallint GENERATED ALWAYS AS (cardinality(show_trgm(title))) STORED NOT NULL;
