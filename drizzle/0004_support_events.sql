CREATE TABLE "support_event_rooms" (
	"room" text PRIMARY KEY NOT NULL,
	"last_seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"room" text NOT NULL,
	"seq" integer NOT NULL,
	"event_type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"data_for_admin" jsonb NOT NULL,
	"data_for_visitor" jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "support_events_room_seq_unique" ON "support_events" USING btree ("room","seq");--> statement-breakpoint
CREATE INDEX "support_events_occurred_at_idx" ON "support_events" USING btree ("occurred_at");