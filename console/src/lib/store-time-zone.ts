// The store's time zone (the API's STORE_TIMEZONE), in which every date of the console is shown.
// The API states it in answers that depend on it (the dashboard's `timeZone`); a screen that
// receives one calls `rememberStoreTimeZone`, and every date on screen follows. Until then, and
// for a store that never changed it, it is Asia/Kathmandu.
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { DEFAULT_TIME_ZONE } from './format';

const key = ['store', 'timeZone'] as const;

export function useStoreTimeZone(): string {
  return useQuery({
    queryKey: key,
    // Never fetched: only ever set by the screens that learn the zone from the API.
    queryFn: () => DEFAULT_TIME_ZONE,
    initialData: DEFAULT_TIME_ZONE,
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}

export function rememberStoreTimeZone(queryClient: QueryClient, timeZone: string): void {
  if (queryClient.getQueryData(key) !== timeZone) queryClient.setQueryData(key, timeZone);
}
