import { type CSSVariablesResolver, createTheme, Notification } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 8: white on it and it on white pass WCAG AA (4.5:1) for small text; shade 6 does not.
  primaryShade: { light: 8, dark: 8 },
  // System fonts (nothing to download) that carry Devanagari on the usual laptops and phones.
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  components: {
    // Under a title, Mantine writes a notification's message in gray 6 (3.3:1 on white, an axe
    // failure on every refused-action notice); gray 7 reads at 5:1.
    Notification: Notification.extend({
      styles: (_theme, props) => ({
        description: props.title ? { color: 'var(--mantine-color-gray-7)' } : {},
      }),
    }),
  },
});

// Mantine's "dimmed" text (gray 6) is 3.3:1 on white: too faint for labels staff must read.
// Its error red (red 6, an input's message and border) is 3.3:1 too; red 9 is 5.5:1. A hovered
// "light" item (the active menu entry under the pointer) puts indigo 9 on indigo 2, 4.1:1;
// on indigo 1 it is 5.3:1.
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-indigo-light-hover': 'var(--mantine-color-indigo-1)',
  },
  dark: {},
});
