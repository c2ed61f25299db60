// Rows and columns, as a table on a laptop and as cards on a phone (issue 27 item 9): a table of
// six columns in 390 px either scrolls sideways or hides its last columns, so below the `sm`
// breakpoint each row becomes a card listing every field under its column's label. Lists
// (PagedTable) and tables inside a screen (an order's items) use it alike.
import { Box, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNarrowScreen } from '../lib/narrow-screen';
import './DataTable.css';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  cell(row: Row): ReactNode;
  /** Figures (money, counts) read best right-aligned (in the table; a card aligns all left). */
  align?: 'left' | 'right';
}

export function DataTable<Row>(props: {
  rows: readonly Row[];
  columns: Column<Row>[];
  rowKey(row: Row): string | number;
  /**
   * Names the table (or the list of cards) for screen readers. Shown above it unless
   * `captionHidden`, for a table under a heading that already says what it is.
   */
  caption: string;
  captionHidden?: boolean;
  /** The rows are a previous page's while the next one loads: a spinner and aria-busy. */
  busy?: boolean;
  /** Below this width the table scrolls sideways inside its box (wide screens only). */
  minWidth?: number;
  verticalSpacing?: 'xs' | 'sm' | 'md';
  striped?: boolean;
}) {
  const narrow = useNarrowScreen();
  const spinner = props.busy ? <Loader size="xs" ml="xs" aria-hidden /> : null;

  if (narrow) {
    return (
      <Stack gap="xs">
        {!props.captionHidden && (
          <Text size="sm" aria-hidden>
            {props.caption}
            {spinner}
          </Text>
        )}
        <Stack
          component="ul"
          gap="sm"
          aria-label={props.caption}
          aria-busy={props.busy}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {props.rows.map((row) => (
            <Paper component="li" withBorder p="sm" key={props.rowKey(row)}>
              <RowCard row={row} columns={props.columns} />
            </Paper>
          ))}
        </Stack>
      </Stack>
    );
  }

  return (
    <Table.ScrollContainer minWidth={props.minWidth ?? 600}>
      {/* While the next page loads, the previous one stays as it is (dimming it would put its
          text below the contrast a reader needs) with a spinner by the caption and aria-busy. */}
      <Table
        striped={props.striped}
        highlightOnHover={props.striped}
        verticalSpacing={props.verticalSpacing}
        aria-busy={props.busy}
        aria-label={props.captionHidden ? props.caption : undefined}
      >
        {!props.captionHidden && (
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
            {props.caption}
            {spinner}
          </Table.Caption>
        )}
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((column) => (
              <Table.Th key={column.key} ta={column.align}>
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((row) => (
            <Table.Tr key={props.rowKey(row)}>
              {props.columns.map((column) => (
                <Table.Td key={column.key} ta={column.align}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * One row as a card: each field under its column's label, label and value side by side. A
 * long unbroken value (an e-mail address, an order number) wraps anywhere rather than
 * pushing the card wider than the phone.
 */
function RowCard<Row>({ row, columns }: { row: Row; columns: Column<Row>[] }) {
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gap: 'var(--mantine-spacing-xs)' }}>
      {columns.map((column) => (
        <Box
          key={column.key}
          style={{
            display: 'grid',
            gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
            columnGap: 'var(--mantine-spacing-sm)',
            alignItems: 'baseline',
          }}
        >
          <Text component="dt" size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {column.header}
          </Text>
          <Box component="dd" m={0} fz="sm" data-card-value style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {column.cell(row)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
