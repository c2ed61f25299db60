// A phone, or anything narrower than Mantine's `sm` breakpoint (48em, 768 px): where the header
// folds into the menu, filters fold behind a button and lists become cards. Read in script (not
// only CSS) so each control exists once in the page: a hidden copy would still be found by name.
import { useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

export function useNarrowScreen(): boolean {
  const theme = useMantineTheme();
  // Just below `sm`, where Mantine's own `hiddenFrom="sm"` and the AppShell's burger switch.
  const query = `(max-width: ${Number.parseFloat(theme.breakpoints.sm) - 0.01}em)`;
  // Read at once: the first render is already the right layout, with no flash of the other one.
  return useMediaQuery(query, undefined, { getInitialValueInEffect: false });
}
