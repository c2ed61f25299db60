// Placements: the storefront's banner slots by slug, each with its layout, how many banners it
// shows and the image size it wants (which the banner form checks before an upload); create,
// edit, activate or deactivate, delete. Each action shows only to a role the API lets do it.
import { Button, Group, NativeSelect, SimpleGrid, Switch, Text, Textarea, TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { fieldRules, textField, valueField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { wholeNumberText } from '../../lib/whole-number';
import { Can, useSession } from '../../session/session';
import {
  checkedSave,
  FormDialog,
  useCatalogFormErrors,
  useRefreshingMutation,
} from '../catalog/catalog-forms';
import { numberOf, RowActions, useSearchText, useUrlFilters } from '../catalog/catalog-ui';
import { ActiveToggle } from './ActiveToggle';
import { LAYOUT_TYPES, type LayoutType, type Placement } from './banners-api';

export function PlacementsScreen() {
  const { t } = useTranslation('banners');
  const { client, can } = useSession();
  const { values, set } = useUrlFilters(['search'] as const);
  const searchBox = useSearchText(values, set);
  const list = usePagedList<Placement>({
    queryKey: ['banners', 'placements', { search: values.search }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/placements', {
        params: { query: { page, size, ...(values.search ? { search: values.search } : {}) } },
      }),
    action: t('actions.loadPlacements'),
  });
  const [editing, setEditing] = useState<Placement | 'new' | null>(null);
  const refreshes = ['banners'];
  const toggle = useRefreshingMutation({
    mutationFn: (p: Placement) => {
      const params = { path: { publicId: p.publicId } };
      return p.isActive
        ? client.patch('/api/admin/placements/{publicId}/deactivate', { params })
        : client.patch('/api/admin/placements/{publicId}/activate', { params });
    },
    refreshes,
    action: t('actions.togglePlacement'),
  });
  const remove = useRefreshingMutation({
    mutationFn: (publicId: string) =>
      client.delete('/api/admin/placements/{publicId}', { params: { path: { publicId } } }),
    refreshes,
    action: t('actions.deletePlacement'),
  });

  return (
    <Screen
      title={t('placements.title')}
      actions={
        <Can permission="Placements_CREATE">
          <Button onClick={() => setEditing('new')}>{t('placements.new')}</Button>
        </Can>
      }
    >
      <TextInput type="search" label={t('placements.search')} maw={420} {...searchBox} />
      <PagedTable
        list={list}
        caption={t('placements.caption')}
        emptyMessage={values.search ? t('placements.noMatch') : t('placements.none')}
        rowKey={(p) => p.publicId}
        columns={[
          {
            key: 'label',
            header: t('fields.label'),
            cell: (p) => (
              <div>
                <Text fw={600}>{p.label}</Text>
                <Text size="sm" ff="monospace">
                  {p.slug}
                </Text>
              </div>
            ),
          },
          { key: 'layout', header: t('fields.layoutType'), cell: (p) => t(`layouts.${p.layoutType}`) },
          {
            key: 'size',
            header: t('placements.sizeRule'),
            cell: (p) => <Text size="sm">{sizeRuleWords(p, t)}</Text>,
          },
          {
            key: 'max',
            header: t('fields.maxBanners'),
            align: 'right',
            cell: (p) => formatCount(p.maxBanners),
          },
          {
            key: 'state',
            header: t('list.state'),
            cell: (p) => (
              <StateBadge color={p.isActive ? 'teal' : 'gray'}>
                {p.isActive ? t('state.active') : t('state.inactive')}
              </StateBadge>
            ),
          },
          {
            key: 'actions',
            header: t('list.actions'),
            cell: (p) => (
              <Group gap="xs" wrap="nowrap">
                {can('Placements_UPDATE') && (
                  <ActiveToggle
                    active={p.isActive}
                    name={p.label}
                    busy={toggle.isPending && toggle.variables?.publicId === p.publicId}
                    onToggle={() => toggle.mutate(p)}
                  />
                )}
                <RowActions
                  name={p.label}
                  editPermission="Placements_UPDATE"
                  onEdit={() => setEditing(p)}
                  deletePermission="Placements_DELETE"
                  deleteTitle={t('placements.deleteTitle')}
                  deleteMessage={t('placements.deleteMessage', { name: p.label })}
                  onDelete={() => remove.mutateAsync(p.publicId)}
                />
              </Group>
            ),
          },
        ]}
      />
      {editing && (
        <PlacementDialog placement={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Screen>
  );
}

/** "1920 × 600 px" / "16:9" / "Any size". */
export function sizeRuleWords(
  p: Pick<Placement, 'recommendedWidth' | 'recommendedHeight' | 'recommendedAspectRatio'>,
  t: TFunction<'banners'>,
): string {
  if (p.recommendedWidth && p.recommendedHeight)
    return t('placements.sizePx', {
      width: formatCount(p.recommendedWidth),
      height: formatCount(p.recommendedHeight),
    });
  if (p.recommendedAspectRatio) return t('placements.ratio', { ratio: p.recommendedAspectRatio });
  return t('placements.anySize');
}

const FIELDS = [
  'slug',
  'label',
  'layoutType',
  'pageContext',
  'maxBanners',
  'recommendedWidth',
  'recommendedHeight',
  'recommendedAspectRatio',
  'sortOrder',
  'notes',
  'isActive',
  'allowPartialRender',
] as const;

function PlacementDialog({ placement, onClose }: { placement: Placement | null; onClose(): void }) {
  const { t } = useTranslation('banners');
  const { client } = useSession();
  const [slug, setSlug] = useState(placement?.slug ?? '');
  const [label, setLabel] = useState(placement?.label ?? '');
  const [layoutType, setLayoutType] = useState<LayoutType>(placement?.layoutType ?? 'full_slider');
  const [pageContext, setPageContext] = useState(placement?.pageContext ?? '');
  const [maxBanners, setMaxBanners] = useState(wholeNumberText(placement?.maxBanners ?? 1));
  const [width, setWidth] = useState(wholeNumberText(placement?.recommendedWidth));
  const [height, setHeight] = useState(wholeNumberText(placement?.recommendedHeight));
  const [ratio, setRatio] = useState(placement?.recommendedAspectRatio ?? '');
  const [sortOrder, setSortOrder] = useState(wholeNumberText(placement?.sortOrder ?? 0));
  const [notes, setNotes] = useState(placement?.notes ?? '');
  const [isActive, setActive] = useState(placement?.isActive ?? true);
  const [partial, setPartial] = useState(placement?.allowPartialRender ?? false);
  const errors = useCatalogFormErrors({
    slug: t('fields.slug'),
    label: t('fields.label'),
    layoutType: t('fields.layoutType'),
    pageContext: t('fields.pageContext'),
    maxBanners: t('fields.maxBanners'),
    recommendedWidth: t('fields.recommendedWidth'),
    recommendedHeight: t('fields.recommendedHeight'),
    recommendedAspectRatio: t('fields.recommendedAspectRatio'),
    sortOrder: t('fields.sortOrder'),
    notes: t('fields.notes'),
    isActive: t('fields.isActive'),
    allowPartialRender: t('fields.allowPartialRender'),
  } satisfies Record<(typeof FIELDS)[number], string>);
  const optional = (text: string) => (text.trim() ? text.trim() : null);
  const body = {
    slug: slug.trim(),
    label: label.trim(),
    layoutType,
    pageContext: optional(pageContext),
    maxBanners: numberOf(maxBanners) ?? 1,
    recommendedWidth: numberOf(width) ?? null,
    recommendedHeight: numberOf(height) ?? null,
    recommendedAspectRatio: optional(ratio),
    sortOrder: numberOf(sortOrder) ?? 0,
    notes: optional(notes),
    isActive,
    allowPartialRender: partial,
  };
  const save = useRefreshingMutation({
    mutationFn: () =>
      placement
        ? client.patch('/api/admin/placements/{publicId}', {
            params: { path: { publicId: placement.publicId } },
            body,
          })
        : client.post('/api/admin/placements', { body }),
    refreshes: ['banners'],
    onSuccess: onClose,
    onError: errors.show,
    action: t('actions.savePlacement'),
  });
  const checked = checkedSave(save, () =>
    errors.check({
      slug: fieldRules.text(slug, { required: true, maximum: 100 }),
      label: fieldRules.text(label, { required: true, maximum: 255 }),
      maxBanners: fieldRules.whole(maxBanners, { required: true, minimum: 1, maximum: 100 }),
      recommendedWidth: fieldRules.whole(width, { minimum: 1, maximum: 100_000 }),
      recommendedHeight: fieldRules.whole(height, { minimum: 1, maximum: 100_000 }),
    }),
  );
  return (
    <FormDialog
      onClose={onClose}
      title={placement ? t('placements.editTitle', { name: placement.label }) : t('placements.newTitle')}
      label={t('placements.form')}
      errors={errors}
      save={checked}
      creating={!placement}
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput label={t('fields.label')} withAsterisk {...textField(errors, 'label', label, setLabel)} />
        <TextInput
          label={t('fields.slug')}
          description={t('placements.slugHelp')}
          withAsterisk
          {...textField(errors, 'slug', slug, (next) => setSlug(next.toLowerCase()))}
          error={errors.of('slug') ?? (errors.code === 'PLACEMENT_SLUG_EXISTS' ? errors.message : undefined)}
        />
        <NativeSelect
          label={t('fields.layoutType')}
          data={LAYOUT_TYPES.map((l) => ({ value: l, label: t(`layouts.${l}`) }))}
          value={layoutType}
          onChange={(event) => setLayoutType(event.currentTarget.value as LayoutType)}
          error={errors.of('layoutType')}
        />
        <TextInput
          label={t('fields.pageContext')}
          description={t('placements.pageContextHelp')}
          {...textField(errors, 'pageContext', pageContext, setPageContext)}
        />
        <WholeNumberInput
          label={t('fields.maxBanners')}
          withAsterisk
          {...valueField(errors, 'maxBanners', maxBanners, setMaxBanners)}
        />
        <WholeNumberInput
          label={t('fields.sortOrder')}
          {...valueField(errors, 'sortOrder', sortOrder, setSortOrder)}
        />
        <WholeNumberInput
          label={t('fields.recommendedWidth')}
          description={t('placements.sizeHelp')}
          {...valueField(errors, 'recommendedWidth', width, setWidth)}
        />
        <WholeNumberInput
          label={t('fields.recommendedHeight')}
          description={t('placements.sizeHelp')}
          {...valueField(errors, 'recommendedHeight', height, setHeight)}
        />
        <TextInput
          label={t('fields.recommendedAspectRatio')}
          description={t('placements.ratioHelp')}
          {...textField(errors, 'recommendedAspectRatio', ratio, setRatio)}
        />
      </SimpleGrid>
      <Textarea
        label={t('fields.notes')}
        autosize
        minRows={2}
        {...textField(errors, 'notes', notes, setNotes)}
      />
      <Switch
        label={t('fields.allowPartialRender')}
        checked={partial}
        onChange={(event) => setPartial(event.currentTarget.checked)}
      />
      <Switch
        label={t('fields.isActive')}
        checked={isActive}
        onChange={(event) => setActive(event.currentTarget.checked)}
      />
    </FormDialog>
  );
}
