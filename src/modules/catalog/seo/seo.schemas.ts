import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { atLeastOneField, safeUrl, searchTerm, timestamps } from '../catalog.schemas';

const text = (max: number) => z.string().trim().max(max).nullable();
const url = safeUrl.nullable();

const alternate = z.object({
  hreflang: z
    .string()
    .trim()
    .regex(
      /^(x-default|[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*)$/,
      'a language tag such as en, ne-NP or x-default',
    ),
  href: safeUrl,
});
/** JSON-LD: one object or a list of objects (`@graph` style). */
const jsonLdObject = z.record(z.string(), z.unknown());
const jsonLd = z.union([jsonLdObject, z.array(jsonLdObject).max(50)]);

const fields = {
  metaTitle: text(255),
  metaDescription: text(1000),
  metaKeywords: text(1000),
  canonicalUrl: url,
  robotsIndex: z.boolean(),
  robotsFollow: z.boolean(),
  robotsAdvanced: text(255).describe('Extra robots directives, e.g. `max-image-preview:large`'),
  ogTitle: text(255),
  ogDescription: text(1000),
  ogType: text(50),
  ogUrl: url,
  ogImageUrl: url,
  ogSiteName: text(255),
  socialCard: text(50).describe('Card type, e.g. `summary_large_image`'),
  socialSite: text(255),
  socialCreator: text(255),
  socialTitle: text(255),
  socialDescription: text(1000),
  socialImageUrl: url,
  alternates: z.array(alternate).max(50).nullable(),
  structuredDataJsonLd: jsonLd.nullable(),
};

export const seoRecord = z.object({ id: z.uuid(), ...fields, ...timestamps }).meta({ id: 'SeoRecord' });
export type SeoView = z.infer<typeof seoRecord>;

const writable = z.object(fields).partial();
export const createSeoBody = writable;
export type CreateSeoBody = z.output<typeof createSeoBody>;
export const updateSeoBody = writable.refine(...atLeastOneField);
export type UpdateSeoBody = z.output<typeof updateSeoBody>;

export const seoListQuery = listQuery(['createdAt', 'updatedAt', 'metaTitle'] as const).extend({
  search: searchTerm.describe('Part of the meta title, OG title or canonical URL'),
});
export type SeoListQuery = z.output<typeof seoListQuery>;
