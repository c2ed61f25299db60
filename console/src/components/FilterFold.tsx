// A list's filters, folded behind a "Filters" button on a phone (issue 27 item 9): six selects
// filled the first screen of the orders list before one order showed. The button says how many
// filters narrow the list, so a folded filter is never forgotten; the address keeps the filters
// as before, so a bookmark or Back comes back folded and still counted. On a laptop the filters
// simply show. Goes inside the list's filter form, around the fields to fold (a search box
// usually stays out, at hand).
import { Badge, Button, Collapse, Stack, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../lib/format';
import { useNarrowScreen } from '../lib/narrow-screen';

export function FilterFold({ active, children }: { active: number; children: ReactNode }) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!narrow) return <>{children}</>;
  return (
    // A row of its own wherever it sits (a grid cell, a wrapping row of fields).
    <Stack gap="sm" w="100%">
      <Button
        // Inside the filter form: pressing it must not submit the search.
        type="button"
        variant="default"
        fullWidth
        justify="space-between"
        aria-expanded={open}
        aria-controls={id}
        rightSection={
          active > 0 ? (
            <Badge size="sm" circle aria-hidden>
              {formatCount(active)}
            </Badge>
          ) : null
        }
        onClick={() => setOpen((was) => !was)}
      >
        {/* The count is a badge to the eye; the button's name says it in words. */}
        {active > 0 ? (
          <>
            <span aria-hidden>{t('filters.toggle')}</span>
            <VisuallyHidden>{t('filters.toggleActive', { shown: formatCount(active) })}</VisuallyHidden>
          </>
        ) : (
          t('filters.toggle')
        )}
      </Button>
      <Collapse expanded={open} id={id} keepMountedMode="display-none">
        {children}
      </Collapse>
    </Stack>
  );
}
