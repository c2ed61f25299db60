// A badge that states something about a record (its status, its role, "Built-in"): dark words
// on a tint of the colour, since coloured text on its own tint fails WCAG AA; in sentence case;
// whole, never cut off with an ellipsis (Nepali words run longer than the badge expects).
import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

export function StateBadge(props: BadgeProps & { role?: string; children: ReactNode }) {
  return (
    <Badge
      variant="light"
      tt="none"
      fw={600}
      c="gray.9"
      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
      {...props}
    />
  );
}
