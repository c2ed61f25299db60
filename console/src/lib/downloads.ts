// Files the API sends (PDFs, CSVs) are fetched through the session's client, since a plain link
// would carry no token, and handed to the browser under the name the API gave them
// (Content-Disposition).
import { PasalError } from './api-errors';

export interface Download {
  blob: Blob;
  fileName: string;
}

/** The file of an openapi-fetch answer asked with `parseAs: 'blob'`; a failure throws `PasalError`. */
export async function downloadOf(
  pending: Promise<{ data?: unknown; error?: unknown; response: Response }>,
  fallbackName: string,
): Promise<Download> {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok || !(data instanceof Blob)) {
    throw new PasalError(
      response.status,
      typeof error === 'object' && error !== null
        ? (error as PasalError['body'])
        : {
            statusCode: response.status,
            message: response.statusText,
            errorCode: 'UNKNOWN',
            timestamp: new Date().toISOString(),
            path: new URL(response.url).pathname,
          },
    );
  }
  const named = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '');
  return { blob: data, fileName: named?.[1] ?? fallbackName };
}
