// The storefront's pages: a fixed set (the API's page keys). Each row says whether the page is
// live and how many sections shoppers see (read from the public route, which never creates a
// page), and opens its editor.
import { Anchor, Table, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { formatCount } from '../../lib/format';
import { useClient } from '../../session/session';
import { fetchPublicPage } from './content-api';
import { PAGE_KEYS } from './section-forms';

export function ContentPagesScreen() {
  const { t } = useTranslation('content');
  const client = useClient();
  const pages = useQueries({
    queries: PAGE_KEYS.map((pageKey) => ({
      queryKey: ['content', 'public', pageKey],
      queryFn: () => fetchPublicPage(client, pageKey),
      meta: { action: t('actions.load') },
    })),
  });
  return (
    <Screen title={t('list.title')}>
      <Text size="sm">{t('list.intro')}</Text>
      {/* Two columns fit a phone (390 px) without scrolling sideways. */}
      <Table.ScrollContainer minWidth={300}>
        <Table striped>
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{t('list.caption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('list.page')}</Table.Th>
              <Table.Th>{t('list.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PAGE_KEYS.map((pageKey, index) => {
              const answer = pages[index];
              const page = answer?.data;
              return (
                <Table.Tr key={pageKey}>
                  <Table.Td>
                    <Anchor component={Link} to={`/content/${pageKey}`} fw={600}>
                      {t(`pages.${pageKey}`)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {answer?.isPending ? (
                      <Text size="sm">{t('list.checking')}</Text>
                    ) : answer?.isError ? (
                      <Text size="sm">{t('list.unknown')}</Text>
                    ) : page && page.sections.length > 0 ? (
                      <StateBadge color="teal">
                        {t('list.live', {
                          count: page.sections.length,
                          shown: formatCount(page.sections.length),
                        })}
                      </StateBadge>
                    ) : (
                      <StateBadge color="gray">{page ? t('list.empty') : t('list.notCreated')}</StateBadge>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Screen>
  );
}
