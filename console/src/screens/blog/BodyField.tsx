// A post's body: written in the rich-text editor (its own chunk, loaded with this screen only)
// or as HTML, and beside it what a save will keep of it — the server's sanitiser asked through
// POST /api/admin/blog/posts/sanitise-preview after each pause in typing — with a warning when
// the sanitiser would remove something, so nothing disappears unseen.
import { Alert, Code, Input, SegmentedControl, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/StatePanels';
import { useSession } from '../../session/session';

const RichBodyEditor = lazy(() => import('./RichBodyEditor'));

export function BodyField(props: {
  value: string;
  onChange(html: string): void;
  error?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('blog');
  const { can } = useSession();
  const [mode, setMode] = useState<'rich' | 'html'>('rich');
  return (
    <Stack gap="xs">
      <Input.Wrapper error={props.error}>
        <Stack gap="xs">
          <SegmentedControl
            aria-label={t('body.mode')}
            value={mode}
            onChange={(value) => setMode(value as 'rich' | 'html')}
            data={[
              { value: 'rich', label: t('body.rich') },
              { value: 'html', label: t('body.html') },
            ]}
            style={{ alignSelf: 'flex-start' }}
          />
          {mode === 'rich' ? (
            <Suspense fallback={<Skeleton height={220} />}>
              <RichBodyEditor
                value={props.value}
                onChange={props.onChange}
                label={t('fields.body')}
                disabled={props.disabled}
              />
            </Suspense>
          ) : (
            <Textarea
              aria-label={t('body.htmlLabel')}
              description={t('body.htmlHint')}
              autosize
              minRows={8}
              maxRows={24}
              ff="monospace"
              value={props.value}
              disabled={props.disabled}
              onChange={(event) => props.onChange(event.currentTarget.value)}
            />
          )}
        </Stack>
      </Input.Wrapper>
      {can('Blog_UPDATE') && !props.disabled && <BodyPreview body={props.value} />}
    </Stack>
  );
}

/** What a save keeps of the body, from the server's own sanitiser, and whether it removes anything. */
function BodyPreview({ body }: { body: string }) {
  const { t } = useTranslation('blog');
  const { client } = useSession();
  const [settled] = useDebouncedValue(body, 600);
  const preview = useQuery({
    queryKey: ['blog', 'body-preview', settled],
    queryFn: () => client.post('/api/admin/blog/posts/sanitise-preview', { body: { body: settled } }),
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { action: t('actions.previewBody') },
  });
  const current = settled === body && !preview.isPlaceholderData;
  return (
    <section aria-labelledby="post-body-kept" aria-busy={!current || preview.isFetching}>
      <Stack gap="xs">
        <Text id="post-body-kept" fw={600} size="sm">
          {t('body.keptTitle')}
        </Text>
        {preview.isError ? (
          <ErrorState error={preview.error} onRetry={() => preview.refetch()} />
        ) : preview.data ? (
          <>
            {preview.data.removed ? (
              <Alert color="red" variant="light" role="alert" title={t('body.removedTitle')}>
                {t('body.removed')}
              </Alert>
            ) : (
              <Text size="sm" c="dimmed">
                {t('body.nothingRemoved')}
              </Text>
            )}
            {/* The HTML itself, as text: exactly what the save stores (the editor above shows it formatted). */}
            {preview.data.body ? (
              <>
                <Text size="sm">{t('body.keptHtml')}</Text>
                <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {preview.data.body}
                </Code>
              </>
            ) : (
              <Text size="sm">{t('body.empty')}</Text>
            )}
          </>
        ) : (
          <Skeleton height={120} />
        )}
      </Stack>
    </section>
  );
}
