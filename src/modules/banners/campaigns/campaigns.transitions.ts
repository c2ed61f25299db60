// The campaign lifecycle of docs/decisions.md ("Campaign transitions"): which admin move is allowed
// from which status. `ended` and `cancelled` are final.
import type { CampaignStatus } from '../banners.table';

export const CAMPAIGN_TRANSITIONS: Readonly<Record<CampaignStatus, readonly CampaignStatus[]>> = {
  draft: ['scheduled', 'active', 'cancelled'],
  scheduled: ['active', 'paused', 'cancelled'],
  active: ['paused', 'ended', 'cancelled'],
  paused: ['active', 'ended', 'cancelled'],
  ended: [],
  cancelled: [],
};

/** The admin lifecycle routes and the status each one moves to. */
export const LIFECYCLE_ROUTES = {
  schedule: 'scheduled',
  activate: 'active',
  pause: 'paused',
  end: 'ended',
  cancel: 'cancelled',
} as const satisfies Record<string, CampaignStatus>;
export type LifecycleAction = keyof typeof LIFECYCLE_ROUTES;

export const canTransition = (from: CampaignStatus, to: CampaignStatus) =>
  CAMPAIGN_TRANSITIONS[from].includes(to);

/** The statuses a campaign may be in for a move to `to`. */
export const sourcesOf = (to: CampaignStatus): CampaignStatus[] =>
  (Object.keys(CAMPAIGN_TRANSITIONS) as CampaignStatus[]).filter((from) => canTransition(from, to));
