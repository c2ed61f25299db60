import { definePermissions } from '../../platform/auth/access';

const CRUD = ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const;
export const bannerPermissions = definePermissions('Banners', CRUD);
export const placementPermissions = definePermissions('Placements', CRUD);
export const campaignPermissions = definePermissions('Campaigns', CRUD);
export const assignmentPermissions = definePermissions('Assignments', CRUD);
export const targetingRulePermissions = definePermissions('TargetingRules', CRUD);
