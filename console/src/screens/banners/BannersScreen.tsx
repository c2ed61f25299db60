// Banners: the list (search, active, schedule status and deleted ones in the address), and a
// dialog to create or edit one: its image uploaded through the uploads module (WebP) after the
// chosen placement's size rule is checked in the browser, alt text, the link (a web address or
// a storefront path), and its schedule in the store's time zone with the BS date beside.
// Activate or deactivate, delete and restore; each action only for a role the API lets do it.
import {
  Anchor,
  Button,
  Group,
  Image,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterFold } from '../../components/FilterFold';
import { useLanguage } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { StoreDateTimeInput } from '../../components/StoreDateTimeInput';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { isRefused } from '../../lib/api-errors';
import { fieldRules, textField, valueField } from '../../lib/form-errors';
import { formatBsDateOf, formatDateTime } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { wholeNumberText } from '../../lib/whole-number';
import { Can, useSession } from '../../session/session';
import {
  checkedSave,
  FormDialog,
  useCatalogFormErrors,
  useRefreshingMutation,
} from '../catalog/catalog-forms';
import {
  activeFilterOf,
  ConfirmButton,
  FilePicker,
  numberOf,
  useDescribeCatalogError,
  useSearchText,
  useUrlFilters,
} from '../catalog/catalog-ui';
import { ActiveToggle } from './ActiveToggle';
import {
  type Banner,
  bannerPage,
  SCHEDULE_STATUSES,
  type ScheduleStatus,
  uploadBannerImage,
  usePlacements,
} from './banners-api';
import { type Size, sizeProblem } from './image-size';
import { sizeRuleWords } from './PlacementsScreen';

const STATUS_COLOURS: Record<ScheduleStatus, string> = {
  evergreen: 'teal',
  active: 'teal',
  scheduled: 'blue',
  expired: 'gray',
  draft: 'yellow',
};

/** A link as the API takes it: an http(s) address or a storefront path ("/sale"). */
export function isBannerLink(value: string): boolean {
  if (/[\s\\]/.test(value)) return false;
  return /^https?:\/\/[^/?#]+/i.test(value) || /^\/(?!\/)/.test(value);
}

/** The natural width and height of an image file, read by the browser. */
function naturalSizeOf(file: File): Promise<Size> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new window.Image();
    image.onload = () => {
      resolve({ width: image.naturalWidth, height: image.naturalHeight });
      URL.revokeObjectURL(url);
    };
    image.onerror = () => {
      reject(new Error('not an image'));
      URL.revokeObjectURL(url);
    };
    image.src = url;
  });
}

export function BannersScreen() {
  const { t } = useTranslation('banners');
  const { client, can } = useSession();
  const { values, set } = useUrlFilters(['search', 'active', 'status', 'deleted'] as const);
  const searchBox = useSearchText(values, set);
  const active = activeFilterOf(values.active);
  const status = SCHEDULE_STATUSES.includes(values.status as ScheduleStatus)
    ? (values.status as ScheduleStatus)
    : undefined;
  const deleted = values.deleted === 'true';
  const list = usePagedList<Banner>({
    queryKey: ['banners', 'banners', { search: values.search, active, status, deleted }],
    fetchPage: ({ page, size }) =>
      bannerPage(client, {
        page,
        size,
        ...(values.search ? { search: values.search } : {}),
        ...(active ? { isActive: active } : {}),
        ...(status ? { scheduleStatus: status } : {}),
        ...(deleted ? { includeDeleted: 'true' } : {}),
      }),
    action: t('actions.loadBanners'),
  });
  const [editing, setEditing] = useState<Banner | 'new' | null>(null);
  const refreshes = ['banners'];
  const toggle = useRefreshingMutation({
    mutationFn: (b: Banner) => {
      const params = { path: { publicId: b.publicId } };
      return b.isActive
        ? client.patch('/api/admin/banners/{publicId}/deactivate', { params })
        : client.patch('/api/admin/banners/{publicId}/activate', { params });
    },
    refreshes,
    action: t('actions.toggleBanner'),
  });
  const remove = useRefreshingMutation({
    mutationFn: (publicId: string) =>
      client.delete('/api/admin/banners/{publicId}', { params: { path: { publicId } } }),
    refreshes,
    action: t('actions.deleteBanner'),
  });
  const restore = useRefreshingMutation({
    mutationFn: (publicId: string) =>
      client.post('/api/admin/banners/{publicId}/restore', { params: { path: { publicId } } }),
    refreshes,
    action: t('actions.restoreBanner'),
  });
  const filtered = Boolean(values.search || active || status || deleted);

  return (
    <Screen
      title={t('banners.title')}
      actions={
        <Can permission="Banners_CREATE">
          <Button onClick={() => setEditing('new')}>{t('banners.new')}</Button>
        </Can>
      }
    >
      <Stack gap="sm">
        <TextInput type="search" label={t('banners.search')} maw={420} {...searchBox} />
        <FilterFold active={[active, status, deleted || undefined].filter(Boolean).length}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" maw={900}>
            <NativeSelect
              label={t('list.state')}
              value={active ?? ''}
              onChange={(event) => set('active', event.currentTarget.value)}
              data={[
                { value: '', label: t('list.any') },
                { value: 'true', label: t('state.active') },
                { value: 'false', label: t('state.inactive') },
              ]}
            />
            <NativeSelect
              label={t('fields.scheduleStatus')}
              value={status ?? ''}
              onChange={(event) => set('status', event.currentTarget.value)}
              data={[
                { value: '', label: t('list.any') },
                ...SCHEDULE_STATUSES.map((s) => ({ value: s, label: t(`schedule.${s}`) })),
              ]}
            />
            <Switch
              mt={{ sm: 'xl' }}
              label={t('banners.showDeleted')}
              checked={deleted}
              onChange={(event) => set('deleted', event.currentTarget.checked ? 'true' : null)}
            />
          </SimpleGrid>
        </FilterFold>
      </Stack>
      <PagedTable
        list={list}
        caption={t('banners.caption')}
        emptyMessage={filtered ? t('banners.noMatch') : t('banners.none')}
        rowKey={(b) => b.publicId}
        columns={[
          {
            key: 'image',
            header: t('fields.image'),
            cell: (b) => (
              <Image
                src={b.primaryImageUrl}
                alt={b.primaryImageAlt ?? ''}
                w={96}
                h={40}
                fit="cover"
                radius="sm"
              />
            ),
          },
          {
            key: 'title',
            header: t('fields.title'),
            cell: (b) => (
              <div>
                <Text fw={600}>{b.title}</Text>
                {b.ctaUrl && (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {b.ctaUrl}
                  </Text>
                )}
              </div>
            ),
          },
          { key: 'schedule', header: t('fields.schedule'), cell: (b) => <ScheduleCell banner={b} /> },
          {
            key: 'state',
            header: t('list.state'),
            cell: (b) => (
              <Group gap={4}>
                {b.deletedAt ? (
                  <StateBadge color="red">{t('state.deleted')}</StateBadge>
                ) : (
                  <StateBadge color={b.isActive ? 'teal' : 'gray'}>
                    {b.isActive ? t('state.active') : t('state.inactive')}
                  </StateBadge>
                )}
              </Group>
            ),
          },
          {
            key: 'actions',
            header: t('list.actions'),
            cell: (b) =>
              b.deletedAt ? (
                can('Banners_UPDATE') && (
                  <Button
                    size="xs"
                    variant="default"
                    loading={restore.isPending && restore.variables === b.publicId}
                    onClick={() => restore.mutate(b.publicId)}
                    aria-label={t('banners.restoreNamed', { name: b.title })}
                  >
                    {t('banners.restore')}
                  </Button>
                )
              ) : (
                <Group gap="xs" wrap="nowrap">
                  {can('Banners_UPDATE') && (
                    <>
                      <ActiveToggle
                        active={b.isActive}
                        name={b.title}
                        busy={toggle.isPending && toggle.variables?.publicId === b.publicId}
                        onToggle={() => toggle.mutate(b)}
                      />
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setEditing(b)}
                        aria-label={t('list.editNamed', { name: b.title })}
                      >
                        {t('list.edit')}
                      </Button>
                    </>
                  )}
                  {can('Banners_DELETE') && (
                    <ConfirmButton
                      size="xs"
                      label={t('list.delete')}
                      aria-label={t('list.deleteNamed', { name: b.title })}
                      title={t('banners.deleteTitle')}
                      message={t('banners.deleteMessage', { name: b.title })}
                      confirmLabel={t('list.delete')}
                      onConfirm={() => remove.mutateAsync(b.publicId)}
                    />
                  )}
                </Group>
              ),
          },
        ]}
      />
      {editing && (
        <BannerDialog banner={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Screen>
  );
}

function ScheduleCell({ banner }: { banner: Banner }) {
  const { t } = useTranslation('banners');
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const at = (value: string) => formatDateTime(value, { timeZone, language });
  return (
    <Stack gap={2}>
      <StateBadge color={STATUS_COLOURS[banner.scheduleStatus]}>
        {t(`schedule.${banner.scheduleStatus}`)}
      </StateBadge>
      {banner.publishAt && <Text size="sm">{t('banners.from', { at: at(banner.publishAt) })}</Text>}
      {banner.expiresAt && <Text size="sm">{t('banners.until', { at: at(banner.expiresAt) })}</Text>}
    </Stack>
  );
}

function BannerDialog({ banner, onClose }: { banner: Banner | null; onClose(): void }) {
  const { t } = useTranslation('banners');
  const { client, can } = useSession();
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const describe = useDescribeCatalogError();
  const placements = usePlacements();
  const [title, setTitle] = useState(banner?.title ?? '');
  const [imageUrl, setImageUrl] = useState(banner?.primaryImageUrl ?? '');
  const [alt, setAlt] = useState(banner?.primaryImageAlt ?? '');
  const [headline, setHeadline] = useState(banner?.headline ?? '');
  const [ctaLabel, setCtaLabel] = useState(banner?.ctaLabel ?? '');
  const [ctaUrl, setCtaUrl] = useState(banner?.ctaUrl ?? '');
  const [priority, setPriority] = useState(wholeNumberText(banner?.priority ?? 0));
  const [scheduleStatus, setScheduleStatus] = useState<ScheduleStatus>(banner?.scheduleStatus ?? 'evergreen');
  const [publishAt, setPublishAt] = useState<string | null>(banner?.publishAt ?? null);
  const [expiresAt, setExpiresAt] = useState<string | null>(banner?.expiresAt ?? null);
  const [isActive, setActive] = useState(banner?.isActive ?? true);
  const [placementId, setPlacementId] = useState('');
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const errors = useCatalogFormErrors({
    title: t('fields.title'),
    primaryImageUrl: t('fields.image'),
    primaryImageAlt: t('fields.alt'),
    headline: t('fields.headline'),
    ctaLabel: t('fields.ctaLabel'),
    ctaUrl: t('fields.ctaUrl'),
    priority: t('fields.priority'),
    scheduleStatus: t('fields.scheduleStatus'),
    publishAt: t('fields.publishAt'),
    expiresAt: t('fields.expiresAt'),
    isActive: t('fields.isActive'),
  });
  const placement = placements.data?.find((p) => p.publicId === placementId);
  const upload = useMutation({
    mutationFn: (file: File) => uploadBannerImage(client, file),
    onSuccess: (url) => {
      setImageUrl(url);
      errors.clear('primaryImageUrl');
    },
    meta: { action: t('actions.uploadImage') },
  });
  const takeFile = async (file: File) => {
    setImageProblem(null);
    let size: { width: number; height: number };
    try {
      size = await naturalSizeOf(file);
    } catch {
      setImageProblem(t('image.notImage'));
      return;
    }
    const problem = placement ? sizeProblem(size, placement) : null;
    if (problem) {
      setImageProblem(
        problem.code === 'ratio'
          ? t('image.wrongRatio', { ...size, ratio: problem.ratio, placement: placement?.label })
          : t('image.tooSmall', {
              ...size,
              minWidth: problem.width,
              minHeight: problem.height,
              placement: placement?.label,
            }),
      );
      return;
    }
    upload.mutate(file);
  };
  const optional = (text: string) => (text.trim() ? text.trim() : null);
  const body = {
    title: title.trim(),
    primaryImageUrl: imageUrl,
    primaryImageAlt: optional(alt),
    headline: optional(headline),
    ctaLabel: optional(ctaLabel),
    ctaUrl: optional(ctaUrl),
    priority: numberOf(priority) ?? 0,
    scheduleStatus,
    publishAt,
    expiresAt,
    isActive,
  };
  const save = useRefreshingMutation({
    mutationFn: () =>
      banner
        ? client.patch('/api/admin/banners/{publicId}', {
            params: { path: { publicId: banner.publicId } },
            body,
          })
        : client.post('/api/admin/banners', { body }),
    refreshes: ['banners'],
    onSuccess: onClose,
    onError: errors.show,
    action: t('actions.saveBanner'),
  });
  const checked = checkedSave(save, () =>
    errors.check({
      title: fieldRules.text(title, { required: true, maximum: 255 }),
      primaryImageUrl: imageUrl ? null : { code: 'required' },
      primaryImageAlt: fieldRules.text(alt, { maximum: 255 }),
      ctaUrl: ctaUrl.trim() && !isBannerLink(ctaUrl.trim()) ? { code: 'link' } : null,
      expiresAt:
        publishAt && expiresAt && Date.parse(publishAt) >= Date.parse(expiresAt)
          ? { code: 'not_after_start' }
          : null,
    }),
  );
  const bs = (value: string | null) => (value ? formatBsDateOf(value, { timeZone, language }) : null);

  return (
    <FormDialog
      onClose={onClose}
      title={banner ? t('banners.editTitle', { name: banner.title }) : t('banners.newTitle')}
      label={t('banners.form')}
      errors={{
        message: errors.code === 'BANNER_SCHEDULE_INVALID' ? null : errors.message,
      }}
      save={checked}
      creating={!banner}
    >
      <TextInput
        label={t('fields.title')}
        withAsterisk
        maxLength={255}
        {...textField(errors, 'title', title, setTitle)}
      />
      <Stack gap={6}>
        {can('Placements_READ') && (
          <NativeSelect
            label={t('banners.madeFor')}
            description={placement ? sizeRuleWords(placement, t) : t('banners.madeForHelp')}
            value={placementId}
            onChange={(event) => {
              setPlacementId(event.currentTarget.value);
              setImageProblem(null);
            }}
            data={[
              { value: '', label: t('banners.anyPlacement') },
              ...(placements.data ?? []).map((p) => ({ value: p.publicId, label: p.label })),
            ]}
          />
        )}
        {can('Uploads_CREATE') && (
          <FilePicker
            label={t('fields.image')}
            description={t('banners.imageHelp')}
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            disabled={upload.isPending}
            error={
              imageProblem ??
              (upload.isError && !isRefused(upload.error) ? describe(upload.error) : undefined) ??
              errors.of('primaryImageUrl')
            }
            onFiles={([file]) => file && void takeFile(file)}
          />
        )}
        {imageUrl && (
          <Group gap="sm" align="center" wrap="nowrap">
            <Image
              src={imageUrl}
              alt={alt || t('banners.preview')}
              w={160}
              h={64}
              fit="contain"
              radius="sm"
            />
            <Anchor
              href={imageUrl}
              target="_blank"
              rel="noreferrer"
              size="sm"
              style={{ overflowWrap: 'anywhere' }}
            >
              {t('banners.imageUploaded')}
            </Anchor>
          </Group>
        )}
      </Stack>
      <TextInput
        label={t('fields.alt')}
        description={t('banners.altHelp')}
        maxLength={255}
        {...textField(errors, 'primaryImageAlt', alt, setAlt)}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('fields.headline')}
          maxLength={255}
          {...textField(errors, 'headline', headline, setHeadline)}
        />
        <TextInput
          label={t('fields.ctaLabel')}
          maxLength={100}
          {...textField(errors, 'ctaLabel', ctaLabel, setCtaLabel)}
        />
      </SimpleGrid>
      <TextInput
        label={t('fields.ctaUrl')}
        description={t('banners.linkHelp')}
        {...textField(errors, 'ctaUrl', ctaUrl, setCtaUrl)}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <NativeSelect
          label={t('fields.scheduleStatus')}
          description={t(`scheduleHelp.${scheduleStatus}`)}
          value={scheduleStatus}
          onChange={(event) => setScheduleStatus(event.currentTarget.value as ScheduleStatus)}
          data={SCHEDULE_STATUSES.map((s) => ({ value: s, label: t(`schedule.${s}`) }))}
          error={errors.of('scheduleStatus')}
        />
        <WholeNumberInput
          label={t('fields.priority')}
          description={t('banners.priorityHelp')}
          {...valueField(errors, 'priority', priority, setPriority)}
        />
        <StoreDateTimeInput
          label={t('fields.publishAt')}
          zoneNote={t('form.zoneNote')}
          {...valueField(errors, 'publishAt', publishAt, setPublishAt)}
        />
        <StoreDateTimeInput
          label={t('fields.expiresAt')}
          zoneNote={t('form.zoneNote')}
          {...valueField(errors, 'expiresAt', expiresAt, setExpiresAt)}
          error={
            errors.of('expiresAt') ??
            (errors.code === 'BANNER_SCHEDULE_INVALID' ? (errors.message ?? undefined) : undefined)
          }
        />
      </SimpleGrid>
      {(publishAt || expiresAt) && (
        <Text size="sm" role="status">
          {t('banners.scheduleWords', {
            from: publishAt
              ? `${formatDateTime(publishAt, { timeZone, language })} (${bs(publishAt)})`
              : t('banners.now'),
            to: expiresAt
              ? `${formatDateTime(expiresAt, { timeZone, language })} (${bs(expiresAt)})`
              : t('banners.noEnd'),
          })}
        </Text>
      )}
      {!banner && (
        <Switch
          label={t('fields.isActive')}
          checked={isActive}
          onChange={(event) => setActive(event.currentTarget.checked)}
        />
      )}
    </FormDialog>
  );
}
