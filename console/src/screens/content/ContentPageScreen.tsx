// One storefront page: whether shoppers see it (a page is live while at least one section is
// shown: the interface has no page-level publish state, docs/api-notes.md "Content pages"), its
// title and SEO record, its sections in order (drag a section, or use Move up / Move down from
// the keyboard), each shown or hidden and edited with the form of its type, the API's
// validation under the field it names; the page as the storefront receives it (the public
// payload); and who changed what (the activity log). Opening a page the store never had creates
// it (the API's GET does).
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  NativeSelect,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { type DragEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { describeError, isPasalError, isRefused } from '../../lib/api-errors';
import { formatCount } from '../../lib/format';
import { Can, useSession } from '../../session/session';
import { ConfirmButton } from '../catalog/catalog-ui';
import { SeoRecordEditor } from '../catalog/ProductSeo';
import { fetchPublicPage } from './content-api';
import { PageHistory } from './PageHistory';
import { SectionFields } from './SectionForm';
import {
  ALLOWED_SECTIONS,
  formPathOf,
  PAGE_KEYS,
  type PageKey,
  payloadOf,
  SECTION_FIELDS,
  type Section,
  type SectionKey,
  type Values,
  valuesOf,
} from './section-forms';

export function ContentPageScreen() {
  const { t } = useTranslation('content');
  const { client } = useSession();
  const params = useParams({ strict: false }) as { pageKey?: string };
  const pageKey = PAGE_KEYS.find((key) => key === params.pageKey);
  const page = useQuery({
    queryKey: ['content', 'page', pageKey],
    queryFn: () =>
      client.get('/api/admin/content/pages/{pageKey}', { params: { path: { pageKey: pageKey as PageKey } } }),
    enabled: pageKey !== undefined,
    meta: { action: t('actions.load') },
  });
  if (!pageKey) return <Screen title={t('editor.unknownPage')}>{null}</Screen>;
  const title = t(`pages.${pageKey}`);
  if (page.isPending)
    return (
      <Screen title={title}>
        <LoadingState />
      </Screen>
    );
  if (page.isError)
    return (
      <Screen title={title}>
        <ErrorState error={page.error} onRetry={() => page.refetch()} />
      </Screen>
    );
  return (
    <Screen
      title={title}
      actions={
        <Anchor component={Link} to="/content">
          {t('editor.back')}
        </Anchor>
      }
    >
      <PageState sections={page.data.sections} />
      <PageMeta pageKey={pageKey} title={page.data.title} />
      <Sections pageKey={pageKey} sections={page.data.sections} />
      <PageSeo pageKey={pageKey} seoId={page.data.seoId} />
      <PublicPreview pageKey={pageKey} />
      <Can permission="ActivityLogs_READ">
        <Paper withBorder p="md" component="section" aria-labelledby="content-history">
          <Title order={2} size="h4" id="content-history" mb="xs">
            {t('history.heading')}
          </Title>
          <PageHistory pageId={page.data.id} />
        </Paper>
      </Can>
    </Screen>
  );
}

/**
 * A saved title or SEO link: the editor shows the answer, and the history and the public
 * preview (which carries the title and SEO record) are read again.
 */
function pageMetaSaved(queryClient: QueryClient, pageKey: PageKey, saved: unknown) {
  queryClient.setQueryData(['content', 'page', pageKey], saved);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['content', 'history'] }),
    queryClient.invalidateQueries({ queryKey: ['content', 'public', pageKey] }),
  ]);
}

/**
 * Whether shoppers see the page: live with the sections shown, or not at all. There is no
 * page-level switch (the interface has none); each section's Shown switch decides.
 */
function PageState({ sections }: { sections: Section[] }) {
  const { t } = useTranslation('content');
  const shown = sections.filter((section) => section.isEnabled).length;
  const hidden = sections.length - shown;
  return (
    <Group gap="xs" role="status">
      {shown > 0 ? (
        <StateBadge color="teal">{t('list.live', { count: shown, shown: formatCount(shown) })}</StateBadge>
      ) : (
        <StateBadge color="gray">{t('list.empty')}</StateBadge>
      )}
      <Text size="sm">
        {hidden > 0 ? t('editor.hiddenCount', { count: hidden, hidden: formatCount(hidden) }) : ''}{' '}
        {t('editor.stateHelp')}
      </Text>
    </Group>
  );
}

/**
 * The page's SEO record: edited in place, created and linked, picked from the existing ones
 * (at most one page per record: the API's CONTENT_SEO_ALREADY_LINKED), or unlinked (PATCH …/meta
 * seoId).
 */
function PageSeo({ pageKey, seoId }: { pageKey: PageKey; seoId: string | null }) {
  const { t } = useTranslation('content');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const link = useMutation({
    mutationFn: (next: string | null) =>
      client.patch('/api/admin/content/pages/{pageKey}/meta', {
        params: { path: { pageKey } },
        body: { seoId: next },
      }),
    onSuccess: (saved) => {
      setError(null);
      return pageMetaSaved(queryClient, pageKey, saved);
    },
    onError: (failure) =>
      setError(
        isRefused(failure)
          ? null
          : isPasalError(failure, 'CONTENT_SEO_ALREADY_LINKED', 'CONTENT_SEO_NOT_FOUND')
            ? t(`errorCodes.${failure.errorCode}`)
            : describeError(failure, t),
      ),
    meta: { action: t('actions.saveSeo') },
  });
  const mayLink = can('Content_UPDATE');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="content-seo">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="content-seo">
          {t('editor.seo')}
        </Title>
        {seoId !== null && mayLink && (
          <ConfirmButton
            size="xs"
            variant="subtle"
            label={t('editor.unlinkSeo')}
            title={t('editor.unlinkSeoTitle')}
            message={t('editor.unlinkSeoMessage')}
            confirmLabel={t('editor.unlinkSeo')}
            onConfirm={() => link.mutateAsync(null)}
          />
        )}
      </Group>
      <FormError message={error} />
      {seoId === null && mayLink && can('Seo_READ') && (
        <SeoRecordPicker onPick={(id) => link.mutate(id)} busy={link.isPending} />
      )}
      <SeoRecordEditor
        seoId={seoId}
        mayAttach={mayLink}
        noneYet={t('editor.noSeo')}
        action={t('actions.saveSeo')}
        attach={async (created) => {
          await link.mutateAsync(created);
        }}
      />
    </Paper>
  );
}

/** An SEO record found by part of its titles or canonical address. */
function SeoRecordPicker({ onPick, busy }: { onPick(id: string): void; busy: boolean }) {
  const { t } = useTranslation('content');
  const { client } = useSession();
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search.trim(), 300);
  const found = useQuery({
    queryKey: ['catalog', 'seo', 'picker', typed],
    queryFn: () =>
      client.get('/api/admin/seo', {
        params: { query: { page: 1, size: 20, ...(typed ? { search: typed } : {}) } },
      }),
    staleTime: 30_000,
    meta: { action: t('actions.loadSeo') },
  });
  return (
    <Select
      mb="sm"
      label={t('editor.pickSeo')}
      description={t('editor.pickSeoHelp')}
      placeholder={t('editor.pickSeoPlaceholder')}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={t('editor.pickSeoNone')}
      disabled={busy}
      value={null}
      data={(found.data ?? []).map((record) => ({
        value: record.id,
        label: record.metaTitle ?? record.ogTitle ?? record.canonicalUrl ?? record.id,
      }))}
      onChange={(id) => id && onPick(id)}
    />
  );
}

function PageMeta({ pageKey, title }: { pageKey: PageKey; title: string }) {
  const { t } = useTranslation('content');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      client.patch('/api/admin/content/pages/{pageKey}/meta', {
        params: { path: { pageKey } },
        body: { title: value.trim() },
      }),
    onSuccess: (saved) => {
      setError(null);
      return pageMetaSaved(queryClient, pageKey, saved);
    },
    onError: (failure) => setError(isRefused(failure) ? null : describeError(failure, t)),
    meta: { action: t('actions.saveMeta') },
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="content-meta">
      <Title order={2} size="h4" id="content-meta" mb="xs">
        {t('editor.meta')}
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <Group align="flex-end">
          <TextInput
            style={{ flex: 1, minWidth: 220 }}
            label={t('editor.pageTitle')}
            maxLength={255}
            value={value}
            readOnly={!can('Content_UPDATE')}
            onChange={(event) => setValue(event.currentTarget.value)}
          />
          {can('Content_UPDATE') && (
            <Button type="submit" variant="default" loading={save.isPending}>
              {t('editor.saveTitle')}
            </Button>
          )}
        </Group>
        {save.isSuccess && (
          <Text size="sm" role="status" mt="xs">
            {t('editor.saved')}
          </Text>
        )}
        <FormError message={error} />
      </form>
    </Paper>
  );
}

function Sections({ pageKey, sections }: { pageKey: PageKey; sections: Section[] }) {
  const { t } = useTranslation('content');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const [dragging, setDragging] = useState<number | null>(null);
  const [adding, setAdding] = useState<SectionKey | null>(null);
  // What moved where, worded when shown: a change of language rewords it too.
  const [moved, setMoved] = useState<{ key: SectionKey; position: number; count: number } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['content'] });
  const put = (section: Section, changes: { position?: number; isEnabled?: boolean }) =>
    client.put('/api/admin/content/pages/{pageKey}/sections/{sectionKey}', {
      params: { path: { pageKey, sectionKey: section.sectionKey } },
      body: {
        payloadJson: section.payloadJson,
        position: changes.position ?? section.position,
        isEnabled: changes.isEnabled ?? section.isEnabled,
      },
    });
  // A new order: each section's position becomes its place (0, 1, 2…); only changed ones are sent.
  const reorder = useMutation({
    mutationFn: async ({ from, to }: { from: number; to: number }) => {
      const next = [...sections];
      const [section] = next.splice(from, 1);
      if (!section) return;
      next.splice(to, 0, section);
      for (const [position, row] of next.entries()) {
        if (row.position !== position) await put(row, { position });
      }
      setMoved({ key: section.sectionKey, position: to + 1, count: next.length });
    },
    onSettled: refresh,
    meta: { action: t('actions.reorder') },
  });
  const toggle = useMutation({
    mutationFn: (section: Section) => put(section, { isEnabled: !section.isEnabled }),
    onSettled: refresh,
    meta: { action: t('actions.toggle') },
  });
  const remove = useMutation({
    mutationFn: (section: Section) =>
      client.delete('/api/admin/content/pages/{pageKey}/sections/{sectionKey}', {
        params: { path: { pageKey, sectionKey: section.sectionKey } },
      }),
    onSettled: refresh,
    meta: { action: t('actions.delete') },
  });
  const missing = ALLOWED_SECTIONS[pageKey].filter((key) => !sections.some((s) => s.sectionKey === key));
  const mayUpdate = can('Content_UPDATE');
  const onDrop = (to: number) => (event: DragEvent) => {
    event.preventDefault();
    if (dragging !== null && dragging !== to) reorder.mutate({ from: dragging, to });
    setDragging(null);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="content-sections">
      <Title order={2} size="h4" id="content-sections">
        {t('editor.sections')}
      </Title>
      <Text size="sm" role="status">
        {moved
          ? t('editor.movedTo', {
              name: t(`sections.${moved.key}`),
              position: moved.position,
              count: moved.count,
            })
          : mayUpdate && sections.length > 1
            ? t('editor.reorderHelp')
            : ''}
      </Text>
      {sections.length === 0 && (
        <Text>{mayUpdate ? t('editor.noSections') : t('editor.noSectionsReadOnly')}</Text>
      )}
      <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {sections.map((section, index) => (
          <Paper
            key={section.sectionKey}
            component="li"
            withBorder
            p="md"
            draggable={mayUpdate}
            onDragStart={() => setDragging(index)}
            onDragOver={(event: DragEvent) => event.preventDefault()}
            onDrop={onDrop(index)}
            style={{ cursor: mayUpdate ? 'grab' : undefined }}
            aria-label={t(`sections.${section.sectionKey}`)}
          >
            <SectionCard
              pageKey={pageKey}
              section={section}
              header={
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs">
                    {mayUpdate && (
                      <Text aria-hidden c="dimmed">
                        ⠿
                      </Text>
                    )}
                    <Title order={3} size="h5">
                      {index + 1}. {t(`sections.${section.sectionKey}`)}
                    </Title>
                  </Group>
                  <Group gap="xs">
                    <Switch
                      label={section.isEnabled ? t('editor.enabled') : t('editor.hidden')}
                      checked={section.isEnabled}
                      disabled={!mayUpdate || toggle.isPending}
                      onChange={() => toggle.mutate(section)}
                      aria-label={t('editor.enabledNamed', { name: t(`sections.${section.sectionKey}`) })}
                    />
                    {mayUpdate && (
                      <>
                        <Button
                          size="xs"
                          variant="default"
                          disabled={index === 0 || reorder.isPending}
                          onClick={() => reorder.mutate({ from: index, to: index - 1 })}
                          aria-label={t('editor.moveUp', { name: t(`sections.${section.sectionKey}`) })}
                        >
                          ↑
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          disabled={index === sections.length - 1 || reorder.isPending}
                          onClick={() => reorder.mutate({ from: index, to: index + 1 })}
                          aria-label={t('editor.moveDown', { name: t(`sections.${section.sectionKey}`) })}
                        >
                          ↓
                        </Button>
                      </>
                    )}
                    <Can permission="Content_DELETE">
                      <ConfirmButton
                        size="xs"
                        label={t('editor.delete')}
                        aria-label={t('editor.deleteNamed', { name: t(`sections.${section.sectionKey}`) })}
                        title={t('editor.deleteTitle')}
                        message={t('editor.deleteMessage', { name: t(`sections.${section.sectionKey}`) })}
                        confirmLabel={t('editor.delete')}
                        onConfirm={() => remove.mutateAsync(section)}
                      />
                    </Can>
                  </Group>
                </Group>
              }
            />
          </Paper>
        ))}
      </Stack>
      {mayUpdate && missing.length > 0 && (
        <Paper withBorder p="md">
          {adding ? (
            <SectionCard
              pageKey={pageKey}
              section={null}
              sectionKey={adding}
              position={sections.length}
              onDone={() => setAdding(null)}
              header={
                <Title order={3} size="h5">
                  {t('editor.newSection', { name: t(`sections.${adding}`) })}
                </Title>
              }
            />
          ) : (
            <Group align="flex-end">
              <NativeSelect
                label={t('editor.addSection')}
                data={[
                  { value: '', label: t('editor.chooseSection') },
                  ...missing.map((key) => ({ value: key, label: t(`sections.${key}`) })),
                ]}
                value=""
                onChange={(event) => setAdding((event.currentTarget.value || null) as SectionKey | null)}
              />
            </Group>
          )}
        </Paper>
      )}
    </Stack>
  );
}

function SectionCard(props: {
  pageKey: PageKey;
  section: Section | null;
  sectionKey?: SectionKey;
  position?: number;
  header: React.ReactNode;
  onDone?(): void;
}) {
  const { t } = useTranslation('content');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const sectionKey = props.section?.sectionKey ?? (props.sectionKey as SectionKey);
  const fields = SECTION_FIELDS[sectionKey];
  const [open, setOpen] = useState(props.section === null);
  const [values, setValues] = useState<Values>(() => valuesOf(fields, props.section?.payloadJson));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      client.put('/api/admin/content/pages/{pageKey}/sections/{sectionKey}', {
        params: { path: { pageKey: props.pageKey, sectionKey } },
        body: {
          payloadJson: payloadOf(fields, values, props.section?.payloadJson),
          position: props.section?.position ?? props.position ?? 0,
          isEnabled: props.section?.isEnabled ?? true,
        },
      }),
    onSuccess: async () => {
      setFieldErrors({});
      setFormError(null);
      await queryClient.invalidateQueries({ queryKey: ['content'] });
      setOpen(props.section === null);
      props.onDone?.();
    },
    onError: (failure) => {
      if (isRefused(failure)) return;
      const details = isPasalError(failure)
        ? ((failure.body as { details?: { path?: string; message: string }[] }).details ?? [])
        : [];
      const placed: Record<string, string> = {};
      for (const detail of details) {
        if (detail.path) placed[formPathOf(detail.path)] ??= detail.message;
      }
      setFieldErrors(placed);
      setFormError(
        isPasalError(failure, 'CONTENT_SECTION_PAYLOAD_INVALID')
          ? t('editor.payloadInvalid', { count: details.length })
          : describeError(failure, t),
      );
    },
    meta: { action: t('actions.saveSection') },
  });
  const errors = {
    of: (path: string) => fieldErrors[path],
    clear: (path: string) =>
      setFieldErrors((current) => {
        if (!(path in current)) return current;
        const { [path]: _gone, ...rest } = current;
        return rest;
      }),
  };
  const name = t(`sections.${sectionKey}`);
  return (
    <Stack gap="sm">
      {props.header}
      {props.section && !open && (
        <Group>
          <Button
            size="xs"
            variant="light"
            onClick={() => setOpen(true)}
            aria-label={t(can('Content_UPDATE') ? 'editor.editNamed' : 'editor.viewNamed', { name })}
          >
            {can('Content_UPDATE') ? t('editor.edit') : t('editor.view')}
          </Button>
        </Group>
      )}
      {open && (
        <form
          noValidate
          aria-label={t('editor.formLabel', { name })}
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="sm">
            <FormError message={formError} />
            <fieldset disabled={!can('Content_UPDATE')} style={{ border: 0, padding: 0, margin: 0 }}>
              <SectionFields fields={fields} values={values} onChange={setValues} errors={errors} />
            </fieldset>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  setValues(valuesOf(fields, props.section?.payloadJson));
                  setFieldErrors({});
                  setFormError(null);
                  setOpen(false);
                  props.onDone?.();
                }}
              >
                {t('editor.cancel')}
              </Button>
              {can('Content_UPDATE') && (
                <Button type="submit" loading={save.isPending}>
                  {t('editor.saveSection')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function PublicPreview({ pageKey }: { pageKey: PageKey }) {
  const { t } = useTranslation('content');
  const { client } = useSession();
  const [shown, setShown] = useState(false);
  const preview = useQuery({
    queryKey: ['content', 'public', pageKey],
    queryFn: () => fetchPublicPage(client, pageKey),
    enabled: shown,
    meta: { action: t('actions.preview') },
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="content-preview">
      <Group justify="space-between">
        <Title order={2} size="h4" id="content-preview">
          {t('editor.preview')}
        </Title>
        <Button variant="default" size="xs" onClick={() => (shown ? preview.refetch() : setShown(true))}>
          {shown ? t('editor.refreshPreview') : t('editor.showPreview')}
        </Button>
      </Group>
      <Text size="sm" mt="xs">
        {t('editor.previewHelp')}
      </Text>
      {shown &&
        (preview.isPending ? (
          <LoadingState />
        ) : preview.isError ? (
          <ErrorState error={preview.error} onRetry={() => preview.refetch()} />
        ) : preview.data === null ? (
          <Alert variant="light" mt="sm">
            {t('editor.previewNone')}
          </Alert>
        ) : (
          <Code
            block
            mt="sm"
            aria-label={t('editor.preview')}
            tabIndex={0}
            style={{ maxHeight: 480, overflow: 'auto' }}
          >
            {JSON.stringify(preview.data, null, 2)}
          </Code>
        ))}
    </Paper>
  );
}
