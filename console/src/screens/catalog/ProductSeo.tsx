// The product's SEO record (/api/admin/seo): the meta title and description search engines show,
// keywords, the canonical address, whether to index and follow, and the social-sharing card.
// A product without one gets a new record, which the product then points at (seoId). Blog posts
// use the same panel (SeoRecordPanel) for theirs.
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
    <SeoRecordPanel
      seoId={product.seoId}
      mayAttach={can('Products_UPDATE')}
      attach={async (seoId) => {
        const updated = await client.patch('/api/admin/products/{id}', {
          params: { path: { id: product.id } },
          body: { seoId },
        });
        queryClient.setQueryData(['catalog', 'product', product.id], updated);
      }}
      saveAction={t('actions.saveSeo', { title: product.title })}
    />
  );
}

/**
 * The SEO record a product, a blog post or a page points at (`seoId`), shown and edited; without
 * one, the form creates a record and `attach` points the owner at it (a change of the owner,
 * which `mayAttach` says the admin may make).
 */
export function SeoRecordPanel(props: {
  seoId: string | null;
  mayAttach: boolean;
  attach(seoId: string): Promise<unknown>;
  /** What saving is, named if the API refuses it ("Save the SEO of Singing bowl"). */
  saveAction: string;
}) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const { seoId } = props;
  const record = useQuery({
    queryKey: ['catalog', 'seo', seoId],
    queryFn: () => client.get('/api/admin/seo/{id}', { params: { path: { id: seoId as string } } }),
    enabled: seoId !== null,
    meta: { action: t('actions.loadSeo') },
  });
  if (seoId !== null && record.isPending) return <LoadingState />;
  if (seoId !== null && record.isError)
    return <ErrorState error={record.error} onRetry={() => record.refetch()} />;
  return <SeoForm key={record.data?.updatedAt ?? 'new'} {...props} record={record.data ?? null} />;
}

function SeoForm({
  record,
  mayAttach,
  attach,
  saveAction,
}: Parameters<typeof SeoRecordPanel>[0] & { record: SeoRecord | null }) {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  // Creating a record also points the owner at it, which is a change of the owner.
  const editable = record ? can('Seo_UPDATE') : can('Seo_CREATE') && mayAttach;
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
      await attach(created.id);
      return created;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['catalog', 'seo', saved.id], saved);
      errors.clear();
    },
    onError: errors.show,
    meta: { action: saveAction },
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
        {!record && <Text size="sm">{t('seo.noneYet')}</Text>}
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
