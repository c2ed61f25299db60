// The frame of one screen: its h1 (one per screen, which screen readers and the e2e tests look
// for), the browser tab's title, and actions beside the heading.
import { Group, Stack, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The browser tab's title: the screen's, then the console's name. */
export function useDocumentTitle(title: string) {
  const { t } = useTranslation();
  const brand = t('common:layout.brand');
  useEffect(() => {
    document.title = `${title} · ${brand}`;
  }, [title, brand]);
}

export function Screen(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  useDocumentTitle(props.title);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {props.title}
        </Title>
        {props.actions}
      </Group>
      {props.children}
    </Stack>
  );
}
