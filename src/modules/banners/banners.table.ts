import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { products } from '../catalog/products/products.table';
import { seoRecords } from '../catalog/seo/seo.table';
import { brands, categories } from '../catalog/taxonomy/taxonomy.table';

export const BANNER_SOURCES = ['internal', 'sponsored', 'affiliate', 'system'] as const;
export type BannerSource = (typeof BANNER_SOURCES)[number];
/** docs/decisions.md "Banner `scheduleStatus`" adds `draft` (never served) to the interface's four. */
export const SCHEDULE_STATUSES = ['draft', 'evergreen', 'scheduled', 'active', 'expired'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'active', 'paused', 'ended', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const LAYOUT_TYPES = [
  'full_slider',
  'full_static',
  'half_pair',
  'quarter_grid',
  'sidebar_stack',
  'sidebar_single',
  'interstitial',
  'popup',
  'inline_card',
  'sticky_bar',
] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];
export const RULE_TYPES = [
  'device',
  'country',
  'user_segment',
  'login_state',
  'language',
  'hour_of_day',
  'day_of_week',
  'new_visitor',
  'referrer_domain',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];

const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const banners = pgTable(
  'banners',
  {
    id: serial('id').primaryKey(),
    publicId: uuid('public_id').notNull().unique(),
    title: text('title').notNull(),
    description: text('description'),
    source: text('source').$type<BannerSource>().notNull().default('internal'),
    isActive: boolean('is_active').notNull().default(true),
    primaryImageUrl: text('primary_image_url').notNull(),
    primaryImageAlt: text('primary_image_alt'),
    mobileImageUrl: text('mobile_image_url'),
    videoUrl: text('video_url'),
    mediaVariants: jsonb('media_variants').$type<Record<string, string>>().notNull().default({}),
    headline: text('headline'),
    subheadline: text('subheadline'),
    ctaLabel: text('cta_label'),
    ctaUrl: text('cta_url'),
    ctaOpenNewTab: boolean('cta_open_new_tab').notNull().default(false),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    utmContent: text('utm_content'),
    brandId: integer('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    bgColor: text('bg_color'),
    priority: integer('priority').notNull().default(0),
    seoId: uuid('seo_id').references(() => seoRecords.id),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    scheduleTimezone: text('schedule_timezone').notNull().default('UTC'),
    recurrenceRule: text('recurrence_rule'),
    /** `HH:MM:SS`, compared as strings. */
    recurrenceWindowStart: text('recurrence_window_start'),
    recurrenceWindowEnd: text('recurrence_window_end'),
    scheduleStatus: text('schedule_status').$type<ScheduleStatus>().notNull().default('evergreen'),
    isEvergreenFallback: boolean('is_evergreen_fallback').notNull().default(false),
    fallbackPlaceholderUrl: text('fallback_placeholder_url'),
    createdBy: uuid('created_by'),
    ...stamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('banners_source_check', sql`${t.source} IN (${inList(BANNER_SOURCES)})`),
    check('banners_schedule_status_check', sql`${t.scheduleStatus} IN (${inList(SCHEDULE_STATUSES)})`),
    check('banners_priority_check', sql`${t.priority} >= 0`),
    check(
      'banners_schedule_window_check',
      sql`${t.publishAt} IS NULL OR ${t.expiresAt} IS NULL OR ${t.publishAt} < ${t.expiresAt}`,
    ),
    // What the minutely sync job scans.
    index('banners_schedule_idx').on(t.scheduleStatus),
  ],
);

export const placements = pgTable(
  'banner_placements',
  {
    id: serial('id').primaryKey(),
    publicId: uuid('public_id').notNull().unique(),
    slug: text('slug').notNull(),
    label: text('label').notNull(),
    layoutType: text('layout_type').$type<LayoutType>().notNull(),
    pageContext: text('page_context'),
    maxBanners: integer('max_banners').notNull().default(1),
    recommendedWidth: integer('recommended_width'),
    recommendedHeight: integer('recommended_height'),
    recommendedAspectRatio: text('recommended_aspect_ratio'),
    notes: text('notes'),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    fallbackPlaceholderUrl: text('fallback_placeholder_url'),
    allowPartialRender: boolean('allow_partial_render').notNull().default(false),
    ...stamps,
  },
  (t) => [
    unique('banner_placements_slug_unique').on(t.slug),
    check('banner_placements_layout_check', sql`${t.layoutType} IN (${inList(LAYOUT_TYPES)})`),
    check('banner_placements_max_check', sql`${t.maxBanners} > 0 AND ${t.sortOrder} >= 0`),
  ],
);

export const campaigns = pgTable(
  'banner_campaigns',
  {
    id: serial('id').primaryKey(),
    publicId: uuid('public_id').notNull().unique(),
    name: text('name').notNull(),
    description: text('description'),
    source: text('source').$type<BannerSource>().notNull().default('internal'),
    status: text('status').$type<CampaignStatus>().notNull().default('draft'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    budgetTotalPaisa: bigint('budget_total_paisa', { mode: 'number' }),
    budgetDailyPaisa: bigint('budget_daily_paisa', { mode: 'number' }),
    impressionCap: integer('impression_cap'),
    clickCap: integer('click_cap'),
    advertiserName: text('advertiser_name'),
    advertiserContact: text('advertiser_contact'),
    contractRef: text('contract_ref'),
    priority: integer('priority').notNull().default(0),
    createdBy: uuid('created_by'),
    ...stamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('banner_campaigns_source_check', sql`${t.source} IN (${inList(BANNER_SOURCES)})`),
    check('banner_campaigns_status_check', sql`${t.status} IN (${inList(CAMPAIGN_STATUSES)})`),
    check(
      'banner_campaigns_window_check',
      sql`${t.startsAt} IS NULL OR ${t.endsAt} IS NULL OR ${t.startsAt} < ${t.endsAt}`,
    ),
    index('banner_campaigns_status_idx').on(t.status),
  ],
);

/** A campaign runs in a placement while this link is active. */
export const campaignPlacements = pgTable(
  'banner_campaign_placements',
  {
    id: serial('id').primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    placementId: integer('placement_id')
      .notNull()
      .references(() => placements.id, { onDelete: 'cascade' }),
    isActive: boolean('is_active').notNull().default(true),
    ...stamps,
  },
  (t) => [
    unique('banner_campaign_placements_pair_unique').on(t.campaignId, t.placementId),
    index('banner_campaign_placements_placement_idx').on(t.placementId),
  ],
);

/** A banner shown by a campaign in one of its placements; removed with the link. */
export const bannerAssignments = pgTable(
  'banner_assignments',
  {
    id: serial('id').primaryKey(),
    campaignId: integer('campaign_id').notNull(),
    placementId: integer('placement_id').notNull(),
    bannerId: integer('banner_id')
      .notNull()
      .references(() => banners.id),
    displayOrder: integer('display_order').notNull().default(0),
    weight: integer('weight').notNull().default(100),
    isFallback: boolean('is_fallback').notNull().default(false),
    fallbackPriority: integer('fallback_priority').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    overrideCtaLabel: text('override_cta_label'),
    overrideCtaUrl: text('override_cta_url'),
    overrideHeadline: text('override_headline'),
    overrideSubheadline: text('override_subheadline'),
    transitionDurationMs: integer('transition_duration_ms'),
    ...stamps,
  },
  (t) => [
    unique('banner_assignments_triple_unique').on(t.campaignId, t.placementId, t.bannerId),
    foreignKey({
      name: 'banner_assignments_link_fk',
      columns: [t.campaignId, t.placementId],
      foreignColumns: [campaignPlacements.campaignId, campaignPlacements.placementId],
    }).onDelete('cascade'),
    index('banner_assignments_placement_idx').on(t.placementId),
  ],
);

export const targetingRules = pgTable(
  'banner_targeting_rules',
  {
    id: serial('id').primaryKey(),
    publicId: uuid('public_id').notNull().unique(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    ruleType: text('rule_type').$type<RuleType>().notNull(),
    operator: text('operator').notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    ...stamps,
  },
  (t) => [
    check('banner_targeting_rules_type_check', sql`${t.ruleType} IN (${inList(RULE_TYPES)})`),
    index('banner_targeting_rules_campaign_idx').on(t.campaignId),
  ],
);

// Tracking rows carry plain ids, no foreign keys: they are written at volume, and the history
// outlives a placement that is deleted later.
const trackingColumns = {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The client's event id: a repeat never makes a second row (unique, ON CONFLICT DO NOTHING). */
  correlationId: text('correlation_id').notNull(),
  bannerId: integer('banner_id').notNull(),
  placementId: integer('placement_id').notNull(),
  campaignId: integer('campaign_id'),
  sessionId: text('session_id'),
  userId: uuid('user_id'),
  deviceType: text('device_type'),
  countryCode: text('country_code'),
  pageUrl: text('page_url'),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
};

export const bannerImpressions = pgTable(
  'banner_impressions',
  { ...trackingColumns, referrerUrl: text('referrer_url') },
  (t) => [
    unique('banner_impressions_correlation_unique').on(t.correlationId),
    index('banner_impressions_occurred_idx').on(t.occurredAt),
  ],
);

export const bannerClicks = pgTable(
  'banner_clicks',
  { ...trackingColumns, destinationUrl: text('destination_url') },
  (t) => [
    unique('banner_clicks_correlation_unique').on(t.correlationId),
    index('banner_clicks_occurred_idx').on(t.occurredAt),
  ],
);

/** Per (banner, placement, campaign, UTC day); rewritten whole by the nightly rollup. */
export const bannerDailyStats = pgTable(
  'banner_daily_stats',
  {
    bannerId: integer('banner_id').notNull(),
    placementId: integer('placement_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    statDate: date('stat_date', { mode: 'string' }).notNull(),
    impressions: integer('impressions').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    spendPaisa: bigint('spend_paisa', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bannerId, t.placementId, t.campaignId, t.statDate] }),
    check(
      'banner_daily_stats_counts_check',
      sql`${t.impressions} >= 0 AND ${t.clicks} >= 0 AND (${t.spendPaisa} IS NULL OR ${t.spendPaisa} >= 0)`,
    ),
    index('banner_daily_stats_date_idx').on(t.statDate),
  ],
);
