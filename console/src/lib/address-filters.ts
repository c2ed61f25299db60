// A list's filters kept in the address (`?status=paid&page=2`), so a reload, Back and a shared
// link show the same list: read from the address once per change of it, and written back with
// `apply` (`replace` for typing in a search box, so Back skips each keystroke).
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';

export function useAddressFilters<Filters>(
  fromSearch: (search: Record<string, unknown>) => Filters,
  toSearch: (filters: Filters) => Record<string, unknown>,
) {
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  // Recomputed only when the address changes (the router keeps `search` stable until then).
  const filters = useMemo(() => fromSearch(search), [fromSearch, search]);
  const apply = useCallback(
    (next: Filters, replace = false) => void navigate({ to: '.', search: toSearch(next), replace } as never),
    [navigate, toSearch],
  );
  return { filters, apply };
}
