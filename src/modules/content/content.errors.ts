import { AppError } from '../../platform/http/errors';
import type { PayloadIssue } from './content.payloads';

// The content interface's codes; CONTENT_SEO_ALREADY_LINKED is ours (docs/api-notes.md, "Content pages").
export const contentErrors = {
  notFound: (what: string) => new AppError(404, 'CONTENT_NOT_FOUND', `${what} not found`),
  sectionKeyInvalid: (pageKey: string, sectionKey: string, allowed: readonly string[]) =>
    new AppError(
      400,
      'CONTENT_SECTION_KEY_INVALID',
      `Section ${sectionKey} is not allowed on page ${pageKey} (allowed: ${allowed.join(', ')})`,
      { allowedSections: [...allowed] },
    ),
  payloadInvalid: (sectionKey: string, details: PayloadIssue[]) =>
    new AppError(
      400,
      'CONTENT_SECTION_PAYLOAD_INVALID',
      `The payload of section ${sectionKey} is not valid`,
      { details },
    ),
  seoNotFound: (id: string) => new AppError(400, 'CONTENT_SEO_NOT_FOUND', `SEO record ${id} does not exist`),
  seoAlreadyLinked: (id: string) =>
    new AppError(409, 'CONTENT_SEO_ALREADY_LINKED', `SEO record ${id} already belongs to another page`),
};
