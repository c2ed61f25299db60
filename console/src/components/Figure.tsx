// One figure of a summary (orders today, stock on hand): its label above, the number large, and
// an optional word on what it counts.
import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}
