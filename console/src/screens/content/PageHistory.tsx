// Who changed a content page and what, newest first: the page's entries of the activity log
// (GET /api/admin/activity?entityType=content_page&entityId=<page id>), for a role that may read
// the log. Worded in the console's language from the entry's action and the section it names
// (the server's summary is English, so it is read for the section and fields, never shown).
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { useSession } from '../../session/session';
import { type ActivityEntry, useActivityWords } from '../staff/activity-words';
import { SECTION_FIELDS, type SectionKey } from './section-forms';

/** The section an entry's summary names ("Updated section hero of content page home"). */
function sectionOf(summary: string): SectionKey | null {
  const key = /section ([a-z_]+) of content page/.exec(summary)?.[1];
  return key && key in SECTION_FIELDS ? (key as SectionKey) : null;
}

/** The page fields a meta change names ("Updated title, seoId of content page home"). */
function fieldsOf(summary: string): string[] {
  const fields = /^Updated (.+) of content page/.exec(summary)?.[1];
  return fields ? fields.split(', ').filter((field) => field === 'title' || field === 'seoId') : [];
}

export function PageHistory({ pageId }: { pageId: number }) {
  const { t } = useTranslation('content');
  const { client } = useSession();
  const { actionName, adminName } = useActivityWords();
  const list = usePagedList<ActivityEntry>({
    queryKey: ['content', 'history', pageId],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/activity', {
        params: {
          query: { page, size, order: 'desc', entityType: 'content_page', entityId: String(pageId) },
        },
      }),
    size: 10,
    action: t('actions.history'),
  });
  const what = (entry: ActivityEntry) => {
    const section = sectionOf(entry.summary);
    const fields = fieldsOf(entry.summary);
    const detail = section
      ? t(`sections.${section}`) + (entry.summary.endsWith('(disabled)') ? ` (${t('history.hidden')})` : '')
      : fields.map((field) => t(`history.fields.${field}`)).join(', ');
    return detail ? `${actionName(entry.action)}: ${detail}` : actionName(entry.action);
  };
  const columns: Column<ActivityEntry>[] = [
    { key: 'when', header: t('history.when'), cell: (e) => <StoreDateTime value={e.createdAt} size="sm" /> },
    {
      key: 'who',
      header: t('history.who'),
      cell: (e) =>
        adminName(e.adminId) ?? (
          <Text span size="sm" c="dimmed">
            {t('history.someone')}
          </Text>
        ),
    },
    { key: 'what', header: t('history.what'), cell: what },
  ];
  return (
    <PagedTable
      list={list}
      columns={columns}
      rowKey={(e) => e.id}
      caption={t('history.title')}
      emptyMessage={t('history.empty')}
    />
  );
}
