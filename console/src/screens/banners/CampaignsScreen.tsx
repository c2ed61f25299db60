// Campaigns: the list (search and status in the address) and a dialog that starts a new one (a
// draft); the campaign's own screen edits the rest: placements, banners, targeting, its status.
import { Anchor, Button, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { fieldRules, textField } from '../../lib/form-errors';
import { formatCount, formatDateTime } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { Can, useSession } from '../../session/session';
import {
  checkedSave,
  FormDialog,
  useCatalogFormErrors,
  useRefreshingMutation,
} from '../catalog/catalog-forms';
import { useSearchText, useUrlFilters } from '../catalog/catalog-ui';
import { CAMPAIGN_MOVES, type Campaign, type CampaignStatus } from './banners-api';

export const CAMPAIGN_STATUSES = Object.keys(CAMPAIGN_MOVES) as CampaignStatus[];
export const CAMPAIGN_COLOURS: Record<CampaignStatus, string> = {
  draft: 'yellow',
  scheduled: 'blue',
  active: 'teal',
  paused: 'orange',
  ended: 'gray',
  cancelled: 'red',
};

export function CampaignsScreen() {
  const { t } = useTranslation('banners');
  const { client } = useSession();
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const { values, set } = useUrlFilters(['search', 'status'] as const);
  const searchBox = useSearchText(values, set);
  const status = CAMPAIGN_STATUSES.includes(values.status as CampaignStatus)
    ? (values.status as CampaignStatus)
    : undefined;
  const list = usePagedList<Campaign>({
    queryKey: ['banners', 'campaigns', { search: values.search, status }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/campaigns', {
        params: {
          query: {
            page,
            size,
            ...(values.search ? { search: values.search } : {}),
            ...(status ? { status } : {}),
          },
        },
      }),
    action: t('actions.loadCampaigns'),
  });
  const [creating, setCreating] = useState(false);
  const at = (value: string | null) => (value ? formatDateTime(value, { timeZone, language }) : '—');

  return (
    <Screen
      title={t('campaigns.title')}
      actions={
        <Can permission="Campaigns_CREATE">
          <Button onClick={() => setCreating(true)}>{t('campaigns.new')}</Button>
        </Can>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput type="search" label={t('campaigns.search')} {...searchBox} />
        <NativeSelect
          label={t('fields.status')}
          value={status ?? ''}
          onChange={(event) => set('status', event.currentTarget.value)}
          data={[
            { value: '', label: t('list.any') },
            ...CAMPAIGN_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
          ]}
        />
      </SimpleGrid>
      <PagedTable
        list={list}
        caption={t('campaigns.caption')}
        emptyMessage={values.search || status ? t('campaigns.noMatch') : t('campaigns.none')}
        rowKey={(c) => c.publicId}
        columns={[
          {
            key: 'name',
            header: t('fields.name'),
            cell: (c) => (
              <Anchor component={Link} to={`/banners/campaigns/${c.publicId}`} fw={600}>
                {c.name}
              </Anchor>
            ),
          },
          {
            key: 'status',
            header: t('fields.status'),
            cell: (c) => (
              <StateBadge color={CAMPAIGN_COLOURS[c.status]}>{t(`status.${c.status}`)}</StateBadge>
            ),
          },
          {
            key: 'window',
            header: t('fields.window'),
            cell: (c) => (
              <Text size="sm">
                {at(c.startsAt)} – {at(c.endsAt)}
              </Text>
            ),
          },
          {
            key: 'priority',
            header: t('fields.priority'),
            align: 'right',
            cell: (c) => formatCount(c.priority),
          },
        ]}
      />
      {creating && <NewCampaignDialog onClose={() => setCreating(false)} />}
    </Screen>
  );
}

function NewCampaignDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('banners');
  const { client } = useSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const errors = useCatalogFormErrors({ name: t('fields.name') });
  const save = useRefreshingMutation({
    mutationFn: () => client.post('/api/admin/campaigns', { body: { name: name.trim() } }),
    refreshes: ['banners'],
    onSuccess: (campaign) => void navigate({ to: `/banners/campaigns/${campaign.publicId}` } as never),
    onError: errors.show,
    action: t('actions.createCampaign'),
  });
  return (
    <FormDialog
      onClose={onClose}
      title={t('campaigns.newTitle')}
      label={t('campaigns.form')}
      errors={errors}
      save={checkedSave(save, () =>
        errors.check({ name: fieldRules.text(name, { required: true, maximum: 255 }) }),
      )}
      creating
    >
      <Text size="sm">{t('campaigns.newHelp')}</Text>
      <TextInput label={t('fields.name')} withAsterisk {...textField(errors, 'name', name, setName)} />
    </FormDialog>
  );
}
