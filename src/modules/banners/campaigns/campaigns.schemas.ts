// Request and response schemas of campaigns, their placements and assignments, and targeting rules.
import { z } from 'zod';
import { atLeastOneField, booleanQuery, safeUrl, searchTerm } from '../../../platform/http/fields';
import { paginationQuery } from '../../../platform/http/pagination';
import { iso, required, text, timestamp } from '../banners.schemas';
import { BANNER_SOURCES, CAMPAIGN_STATUSES, RULE_TYPES } from '../banners.table';

// ---------- campaigns ----------

const paisa = z.number().int().min(0).max(1_000_000_000_000_000);
const campaignFields = {
  name: required(255),
  description: text(10_000).nullable(),
  source: z.enum(BANNER_SOURCES),
  startsAt: timestamp.nullable(),
  endsAt: timestamp.nullable(),
  budgetTotalPaisa: paisa.nullable(),
  budgetDailyPaisa: paisa.nullable(),
  impressionCap: z.number().int().min(0).max(2_000_000_000).nullable(),
  clickCap: z.number().int().min(0).max(2_000_000_000).nullable(),
  advertiserName: text(255).nullable(),
  advertiserContact: text(255).nullable(),
  contractRef: text(255).nullable(),
  priority: z.number().int().min(0).max(1_000_000),
};
/**
 * A `status` in the body is dropped: a new campaign is always a draft
 * (docs/decisions.md "Campaign schedule").
 */
export const createCampaignBody = z.object(campaignFields).partial().required({ name: true });
export type CreateCampaignBody = z.output<typeof createCampaignBody>;
export const updateCampaignBody = z
  .object(campaignFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateCampaignBody = z.output<typeof updateCampaignBody>;

export const CAMPAIGN_SORTS = ['updatedAt', 'createdAt', 'startsAt', 'endsAt', 'name', 'priority'] as const;
export const campaignListQuery = paginationQuery.extend({
  sort: z.enum(CAMPAIGN_SORTS).default('updatedAt'),
  search: searchTerm,
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  source: z.enum(BANNER_SOURCES).optional(),
  includeDeleted: booleanQuery.default(false),
});
export type CampaignListQuery = z.output<typeof campaignListQuery>;

export const adminCampaign = z.object({
  publicId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  source: z.enum(BANNER_SOURCES),
  status: z.enum(CAMPAIGN_STATUSES),
  startsAt: iso.nullable(),
  endsAt: iso.nullable(),
  budgetTotalPaisa: z.number().int().nullable(),
  budgetDailyPaisa: z.number().int().nullable(),
  impressionCap: z.number().int().nullable(),
  clickCap: z.number().int().nullable(),
  advertiserName: z.string().nullable(),
  advertiserContact: z.string().nullable(),
  contractRef: z.string().nullable(),
  priority: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: iso,
  updatedAt: iso,
  deletedAt: iso.nullable(),
});
export type AdminCampaign = z.infer<typeof adminCampaign>;

// ---------- campaign placements and assignments ----------

export const createLinkBody = z.object({
  placementPublicId: z.uuid(),
  isActive: z.boolean().optional(),
});
export type CreateLinkBody = z.output<typeof createLinkBody>;

export const campaignPlacementView = z.object({
  campaignPublicId: z.uuid(),
  placementPublicId: z.uuid(),
  placementSlug: z.string(),
  isActive: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});
export type CampaignPlacementView = z.infer<typeof campaignPlacementView>;

const assignmentFields = {
  displayOrder: z.number().int().min(0).max(1_000_000),
  weight: z.number().int().min(0).max(1_000_000),
  isFallback: z.boolean(),
  fallbackPriority: z.number().int().min(0).max(1_000_000),
  overrideCtaLabel: text(100).nullable(),
  overrideCtaUrl: safeUrl.nullable(),
  overrideHeadline: text(255).nullable(),
  overrideSubheadline: text(255).nullable(),
  transitionDurationMs: z.number().int().min(0).max(600_000).nullable(),
};
export const createAssignmentBody = z
  .object({ bannerPublicId: z.uuid(), ...assignmentFields })
  .partial()
  .required({
    bannerPublicId: true,
  });
export type CreateAssignmentBody = z.output<typeof createAssignmentBody>;
export const updateAssignmentBody = z
  .object(assignmentFields)
  .partial()
  .refine(...atLeastOneField);
export type UpdateAssignmentBody = z.output<typeof updateAssignmentBody>;

export const assignmentView = z.object({
  campaignPublicId: z.uuid(),
  placementPublicId: z.uuid(),
  bannerPublicId: z.uuid(),
  bannerTitle: z.string(),
  displayOrder: z.number().int(),
  weight: z.number().int(),
  isFallback: z.boolean(),
  fallbackPriority: z.number().int(),
  isActive: z.boolean(),
  overrideCtaLabel: z.string().nullable(),
  overrideCtaUrl: z.string().nullable(),
  overrideHeadline: z.string().nullable(),
  overrideSubheadline: z.string().nullable(),
  transitionDurationMs: z.number().int().nullable(),
  createdAt: iso,
  updatedAt: iso,
});
export type AssignmentView = z.infer<typeof assignmentView>;

// ---------- targeting rules ----------

const ruleValue = z
  .unknown()
  .refine((v) => v !== undefined, 'value is required')
  .describe('Shape depends on ruleType (docs/api-notes.md, "Targeting rules")');
export const ruleListQuery = z.object({ campaignPublicId: z.uuid() });
export const createRuleBody = z.object({
  campaignPublicId: z.uuid(),
  ruleType: z.enum(RULE_TYPES),
  operator: required(32),
  value: ruleValue,
  isActive: z.boolean().optional(),
});
export type CreateRuleBody = z.output<typeof createRuleBody>;
export const updateRuleBody = z
  .object({
    ruleType: z.enum(RULE_TYPES),
    operator: required(32),
    value: z.unknown(),
    isActive: z.boolean(),
  })
  .partial()
  .refine(...atLeastOneField);
export type UpdateRuleBody = z.output<typeof updateRuleBody>;

export const ruleView = z.object({
  publicId: z.uuid(),
  campaignPublicId: z.uuid(),
  ruleType: z.enum(RULE_TYPES),
  operator: z.string(),
  value: z.unknown(),
  isActive: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});
export type RuleView = z.infer<typeof ruleView>;
