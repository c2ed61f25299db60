// An SEO record (/api/admin/seo): the meta title and description search engines show, keywords,
// the canonical address, whether to index and follow, and the social-sharing card. A record's
// owner (a product, a content page) without one gets a new record, which the owner then points
// at (its seoId) through `attach`. ProductSeo is the product's; content pages and blog posts use SeoRecordEditor.
import { Group, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { useSession } from '../../session/session';
import type { Product, SeoRecord } from './catalog-api';
import { handleSubmit, SaveRow, useCatalogFormErrors } from './catalog-forms';

const TEXT_FIELDS = [
  'metaTitle',
  'metaDescription',
  'metaKeywords',
  'canonicalUrl',
  'ogTitle',
  'ogDescription',
  'ogImageUrl',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

export function ProductSeo({ product }: { product: Product }) {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  return (
    <SeoRecordEditor
      seoId={product.seoId}
      mayAttach={can('Products_UPDATE')}
      noneYet={t('seo.noneYet')}
      action={t('actions.saveSeo', { title: product.title })}
      attach={async (seoId) => {
        const updated = await client.patch('/api/admin/products/{id}', {
          params: { path: { id: product.id } },
          body: { seoId },
        });
        queryClient.setQueryData(['catalog', 'product', product.id], updated);
      }}
    />
  );
}

/** Edits the record `seoId` names, or creates one and `attach`es it (a change of its owner). */
export function SeoRecordEditor(props: {
  seoId: string | null;
  mayAttach: boolean;
  /** What having no record means for this owner, in the admin's language. */
  noneYet: string;
  /** What saving is, named if the API refuses it. */
  action: string;
  attach(seoId: string): Promise<void>;
}) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const seoId = props.seoId;
  const record = useQuery({
    queryKey: ['catalog', 'seo', seoId],
    queryFn: () => client.get('/api/admin/seo/{id}', { params: { path: { id: seoId as string } } }),
    enabled: seoId !== null,
    meta: { action: t('actions.loadSeo') },
  });
  if (seoId !== null && record.isPending) return <LoadingState />;
  if (seoId !== null && record.isError)
    return <ErrorState error={record.error} onRetry={() => record.refetch()} />;
  return <SeoForm key={record.data?.updatedAt ?? 'new'} owner={props} record={record.data ?? null} />;
}

function SeoForm({
  owner,
  record,
}: {
  owner: Pick<Parameters<typeof SeoRecordEditor>[0], 'mayAttach' | 'noneYet' | 'action' | 'attach'>;
  record: SeoRecord | null;
}) {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  // Creating a record also points its owner at it, which is a change of the owner.
  const editable = record ? can('Seo_UPDATE') : can('Seo_CREATE') && owner.mayAttach;
  const [values, setValues] = useState<Record<TextField, string>>(
    () =>
      Object.fromEntries(TEXT_FIELDS.map((field) => [field, record?.[field] ?? ''])) as Record<
        TextField,
        string
      >,
  );
  const [robotsIndex, setRobotsIndex] = useState(record?.robotsIndex ?? true);
  const [robotsFollow, setRobotsFollow] = useState(record?.robotsFollow ?? true);
  const errors = useCatalogFormErrors([...TEXT_FIELDS, 'robotsIndex', 'robotsFollow']);

  const save = useMutation({
    mutationFn: async () => {
      // An emptied field clears it (null), as the API reads it.
      const body = {
        ...(Object.fromEntries(
          TEXT_FIELDS.map((field) => [field, values[field].trim() === '' ? null : values[field].trim()]),
        ) as Record<TextField, string | null>),
        robotsIndex,
        robotsFollow,
      };
      if (record) return client.patch('/api/admin/seo/{id}', { params: { path: { id: record.id } }, body });
      const created = await client.post('/api/admin/seo', { body });
      await owner.attach(created.id);
      return created;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['catalog', 'seo', saved.id], saved);
      errors.clear();
    },
    onError: errors.show,
    meta: { action: owner.action },
  });

  const input = (field: TextField, multiline = false) => {
    const props = {
      label: t(`seo.${field}`),
      description: t(`seo.${field}Hint`, { defaultValue: '' }) || undefined,
      value: values[field],
      error: errors.of(field),
      disabled: !editable,
    };
    const change = (value: string) => {
      setValues((current) => ({ ...current, [field]: value }));
      errors.clear(field);
    };
    return multiline ? (
      <Textarea
        key={field}
        autosize
        minRows={2}
        {...props}
        onChange={(event) => change(event.currentTarget.value)}
      />
    ) : (
      <TextInput key={field} {...props} onChange={(event) => change(event.currentTarget.value)} />
    );
  };

  return (
    <form onSubmit={handleSubmit(() => save.mutate())} noValidate aria-label={t('seo.formLabel')}>
      <Stack gap="sm">
        {!record && <Text size="sm">{owner.noneYet}</Text>}
        <FormError message={errors.message} />
        {input('metaTitle')}
        {input('metaDescription', true)}
        {input('metaKeywords')}
        {input('canonicalUrl')}
        <Group>
          <Switch
            label={t('seo.robotsIndex')}
            checked={robotsIndex}
            disabled={!editable}
            onChange={(event) => setRobotsIndex(event.currentTarget.checked)}
          />
          <Switch
            label={t('seo.robotsFollow')}
            checked={robotsFollow}
            disabled={!editable}
            onChange={(event) => setRobotsFollow(event.currentTarget.checked)}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {input('ogTitle')}
          {input('ogImageUrl')}
        </SimpleGrid>
        {input('ogDescription', true)}
        {editable && (
          <SaveRow
            saved={save.isSuccess ? t('seo.saved') : null}
            busy={save.isPending}
            label={record ? t('seo.save') : t('seo.create')}
          />
        )}
      </Stack>
    </form>
  );
}
