// The activity log's words, shared by the log itself and the screens that show one record's
// history (a content page's changes): actions and kinds of record named in the console's
// language (a code the console has no name for yet in words: "cod collect"), and who acted
// (the system, an admin by name when the role may read admins, else "a staff member").
import type { components } from '@pasal/client';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/session';
import { useAllAdmins } from './staff-api';

export type ActivityEntry = components['schemas']['AdminActivityEntry'];

/** A code the console has no name for yet, in words rather than snake_case: "cod collect". */
export const inWords = (code: string) => code.replaceAll('_', ' ');

export function useActivityWords() {
  const { t } = useTranslation('staff');
  const { admin } = useSession();
  const admins = useAllAdmins();
  const names = new Map((admins ?? []).map((a) => [a.id, a.name]));
  return {
    /** Every admin, when the role may read them (for a filter by admin). */
    admins,
    actionName: (action: string) => t(`activity.actions.${action}`, { defaultValue: inWords(action) }),
    kindName: (kind: string) => t(`activity.kinds.${kind}`, { defaultValue: inWords(kind) }),
    /** Who acted, by name; null when the console cannot name them (show the id instead). */
    adminName: (adminId: string | null): string | null => {
      if (adminId === null) return t('activity.system');
      return names.get(adminId) ?? (adminId === admin?.id ? admin.name : null);
    },
  };
}
