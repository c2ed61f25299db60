// Bodies the two kinds of conversation (chat inquiries and tickets) take alike: a message, and
// an assignment to an admin (null unassigns).
import { z } from 'zod';

export const trimmed = (max: number) => z.string().trim().min(1, 'must not be blank').max(max);

export const messageBody = z.object({ body: trimmed(10_000) });
export type MessageBody = z.output<typeof messageBody>;

export const assignBody = z.object({ assignedAdminId: z.uuid().nullable() });
