// Whether a banner's schedule lets it be served at a moment (interface document 3, "Serving
// eligibility by scheduleStatus"). Pure, so the window rules have table-driven tests.
import type { ScheduleStatus } from '../banners.table';
import { localClockTime } from '../campaigns/campaigns.targeting';

export interface BannerSchedule {
  scheduleStatus: ScheduleStatus;
  publishAt: Date | null;
  expiresAt: Date | null;
  scheduleTimezone: string;
  recurrenceWindowStart: string | null;
  recurrenceWindowEnd: string | null;
}

/**
 * `HH:MM:SS` strings compared as strings, inclusive, in the banner's `scheduleTimezone`. A window
 * whose start is after its end runs across midnight (22:00:00–02:00:00).
 */
export function insideRecurrenceWindow(s: BannerSchedule, now: Date): boolean {
  const { recurrenceWindowStart: start, recurrenceWindowEnd: end } = s;
  if (!start || !end) return true;
  let t: string;
  try {
    t = localClockTime(now, s.scheduleTimezone);
  } catch {
    t = localClockTime(now, 'UTC');
  }
  return start <= end ? t >= start && t <= end : t >= start || t <= end;
}

export function servableAt(s: BannerSchedule, now: Date): boolean {
  switch (s.scheduleStatus) {
    case 'expired':
    case 'draft':
      return false;
    case 'scheduled':
    case 'active': {
      const started = !s.publishAt || s.publishAt.getTime() <= now.getTime();
      const notExpired = !s.expiresAt || s.expiresAt.getTime() > now.getTime();
      return started && notExpired && insideRecurrenceWindow(s, now);
    }
    case 'evergreen':
      return insideRecurrenceWindow(s, now);
  }
}
