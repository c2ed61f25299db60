// A list row's Activate / Deactivate button (banners, placements), named with the row for
// screen readers and busy while its own row changes.
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ActiveToggle(props: { active: boolean; name: string; busy: boolean; onToggle(): void }) {
  const { t } = useTranslation('banners');
  return (
    <Button
      size="xs"
      variant="default"
      loading={props.busy}
      onClick={props.onToggle}
      aria-label={t(props.active ? 'list.deactivateNamed' : 'list.activateNamed', { name: props.name })}
    >
      {props.active ? t('list.deactivate') : t('list.activate')}
    </Button>
  );
}
