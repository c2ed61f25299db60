// The frame of each part of the order page.
import { Group, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of the order page (a landmark, so screen readers can jump between them). */
export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}
