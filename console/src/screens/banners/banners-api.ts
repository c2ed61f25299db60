// The banner area's records as the typed client gives them, the lists the screens share, and an
// image upload for banners (public, stored as WebP by the uploads module).
import type { PasalClient, paths } from '@pasal/client';
import { useQuery } from '@tanstack/react-query';
import type { ListPage } from '../../components/PagedTable';
import { useSession } from '../../session/session';
import { uploadFiles } from '../catalog/catalog-api';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;
type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: infer A }
    ? Data<A>
    : R extends { 201: infer A }
      ? Data<A>
      : never
  : never;

export type Banner = Ok<'/api/admin/banners/{publicId}', 'get'>;
export type Placement = Ok<'/api/admin/placements/{publicId}', 'get'>;
export type Campaign = Ok<'/api/admin/campaigns/{publicId}', 'get'>;
export type CampaignLink = Ok<'/api/admin/campaigns/{publicId}/placements', 'get'>[number];
export type Assignment = Ok<
  '/api/admin/campaigns/{publicId}/placements/{placementPublicId}/banners',
  'get'
>[number];
export type TargetingRule = Ok<'/api/admin/targeting-rules', 'get'>[number];
export type DailyFigures = Ok<'/api/admin/banner-stats/daily', 'get'>;

export type ScheduleStatus = Banner['scheduleStatus'];
export const SCHEDULE_STATUSES: readonly ScheduleStatus[] = [
  'evergreen',
  'scheduled',
  'active',
  'expired',
  'draft',
];
export type CampaignStatus = Campaign['status'];
export type LayoutType = Placement['layoutType'];
export const LAYOUT_TYPES: readonly LayoutType[] = [
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
];

/**
 * The campaign lifecycle of docs/decisions.md ("Campaign transitions"), as the API enforces it:
 * the moves a campaign in each status may make, by the route that makes them.
 */
export const CAMPAIGN_MOVES: Readonly<
  Record<CampaignStatus, readonly ('schedule' | 'activate' | 'pause' | 'end' | 'cancel')[]>
> = {
  draft: ['schedule', 'activate', 'cancel'],
  scheduled: ['activate', 'pause', 'cancel'],
  active: ['pause', 'end', 'cancel'],
  paused: ['activate', 'end', 'cancel'],
  ended: [],
  cancelled: [],
};

/** The banner list answers `pagination` at the top level (interface); PagedTable reads `meta`. */
export async function bannerPage(
  client: PasalClient,
  query: NonNullable<paths['/api/admin/banners']['get']['parameters']['query']>,
): Promise<ListPage<Banner>> {
  const answer = await client.list('/api/admin/banners', { params: { query } });
  return { data: answer.data, meta: answer.pagination ? { count: answer.pagination.count } : undefined };
}

/** Every placement (a store has a handful), for the pickers and the size rules. */
export function usePlacements() {
  const { client, can } = useSession();
  return useQuery({
    queryKey: ['banners', 'placements', 'all'],
    queryFn: async () =>
      (await client.list('/api/admin/placements', { params: { query: { size: 100 } } })).data,
    enabled: can('Placements_READ'),
  });
}

/** One banner image, public (the storefront shows it), optimised to WebP by the API. */
export async function uploadBannerImage(client: PasalClient, file: File): Promise<string> {
  const [stored] = await uploadFiles(client, [file], 'landing');
  if (!stored) throw new Error('The upload answered no file');
  return stored.url;
}
