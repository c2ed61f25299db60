// A conversation's status as a coloured badge, worded in the admin's language.
import { useTranslation } from 'react-i18next';
import { StateBadge } from '../../components/StateBadge';

// Dark words on a tint of the colour (as the orders area does): coloured text on its own tint
// fails WCAG AA. The words are whole, never cut off.
const COLOURS: Record<string, string> = {
  open: 'blue',
  active: 'teal',
  waiting: 'yellow',
  in_progress: 'teal',
  linked: 'grape',
  resolved: 'green',
  closed: 'gray',
  spam: 'red',
  new: 'blue',
  reviewed: 'green',
};

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('support');
  return (
    <StateBadge color={COLOURS[status] ?? 'gray'}>
      {t(`status.${status}`, { defaultValue: status.replaceAll('_', ' ') })}
    </StateBadge>
  );
}
