import { z } from 'zod';

/**
 * The route's 200 for the OpenAPI document: a PDF file, not the JSON envelope. The handler
 * sends a Buffer, which Fastify never passes to the serializer; `any` lets it type-check.
 */
export const invoicePdfResponse = {
  description: 'The invoice, as a download named invoice-<orderNumber>.pdf',
  content: {
    'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
  },
};
