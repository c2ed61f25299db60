import { z } from 'zod';

export const systemInfo = z.object({
  name: z.string(),
  version: z.string(),
  environment: z.enum(['development', 'test', 'production']),
  role: z.enum(['api', 'worker', 'all']),
  startedAt: z.iso.datetime(),
  uptimeSeconds: z.number().int(),
  drivers: z.object({
    database: z.string(),
    cache: z.string(),
    jobs: z.string(),
    mail: z.string(),
    sms: z.string(),
    realtime: z.string(),
  }),
  lastJobHeartbeatAt: z.iso.datetime().nullable().describe('When a worker last ran the heartbeat job'),
});
export type SystemInfo = z.infer<typeof systemInfo>;

export const systemStatus = z.object({
  name: z.string(),
  version: z.string(),
  lastJobHeartbeatAt: z.iso.datetime().nullable(),
});
export type SystemStatus = z.infer<typeof systemStatus>;
