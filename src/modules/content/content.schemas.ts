// Requests and responses of the content routes. Section payloads themselves are checked per
// section key in the service (content.payloads.ts), so a bad payload answers
// CONTENT_SECTION_PAYLOAD_INVALID rather than VALIDATION_ERROR.
import { z } from 'zod';
import { seoRecordSchema } from '../catalog';
import { PAGE_KEYS, SECTION_KEYS, SECTION_PAYLOADS } from './content.payloads';

export const pageKey = z.enum(PAGE_KEYS);
export const sectionKey = z.enum(SECTION_KEYS);

export const pageParams = z.object({ pageKey });
export const sectionParams = z.object({ pageKey, sectionKey });

/** Whether a NUL character hides in any string (or key) of a JSON value: PostgreSQL cannot store one. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => key.includes('\u0000') || containsNul(v));
  }
  return false;
}
const noNul = [(v: unknown) => !containsNul(v), { message: 'must not contain a NUL character' }] as const;

const timestamps = { createdAt: z.iso.datetime(), updatedAt: z.iso.datetime() };

export const contentSeo = seoRecordSchema
  .omit({ createdAt: true, updatedAt: true })
  .meta({ id: 'ContentPageSeo', description: 'The resolved SEO record of a page.' });
export type ContentSeo = z.infer<typeof contentSeo>;

export const contentSection = z
  .object({
    id: z.number().int(),
    sectionKey,
    position: z.number().int().min(0),
    isEnabled: z.boolean(),
    payloadJson: z
      .record(z.string(), z.unknown())
      .describe('The section payload; its shape is the `Content…Payload` component of the section key.'),
    ...timestamps,
  })
  .meta({ id: 'ContentSection' });
export type ContentSectionView = z.infer<typeof contentSection>;

export const contentPage = z
  .object({
    id: z.number().int(),
    pageKey,
    title: z.string(),
    seoId: z.uuid().nullable(),
    seo: contentSeo.nullable(),
    sections: z.array(contentSection).describe('Ordered by position, then id'),
    ...timestamps,
  })
  .meta({ id: 'ContentPage' });
export type ContentPageView = z.infer<typeof contentPage>;

export const updateMetaBody = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine(...noNul)
      .optional(),
    seoId: z.uuid().nullable().optional().describe('null unlinks the SEO record'),
  })
  .refine((b) => b.title !== undefined || b.seoId !== undefined, {
    message: 'give title or seoId',
  });
export type UpdateMetaBody = z.output<typeof updateMetaBody>;

export const upsertSectionBody = z.object({
  payloadJson: z
    .record(z.string(), z.unknown())
    .refine(...noNul)
    .meta({
      description:
        'The section payload: `ContentHeroPayload` for `hero`, `ContentLinkListPayload` for the link lists, … (see the components).',
      // Documentation only (the section key picks the payload schema that validates it): lets
      // generators and readers reach every payload schema from the route.
      anyOf: [...new Set(Object.values(SECTION_PAYLOADS).map((p) => p.meta()?.id))].map((id) => ({
        $ref: `#/components/schemas/${id}`,
      })),
    }),
  position: z.number().int().min(0).max(2_147_483_647).default(0),
  isEnabled: z.boolean().default(true),
});
export type UpsertSectionBody = z.output<typeof upsertSectionBody>;
