// Choosing products by typing part of their name: a searchable select (one product, e.g. a
// list's filter) or multi-select (several, e.g. the products a coupon is limited to). The choices
// come from the admin product search; products already chosen keep their names while the search
// shows others. Labels come from the screen (its namespace), so this file has no strings.
import { MultiSelect, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useClient } from '../session/session';

interface Choice {
  value: string;
  label: string;
}

function useProductChoices(search: string, chosen: readonly number[], action: string) {
  const client = useClient();
  const [typed] = useDebouncedValue(search.trim(), 300);
  const found = useQuery({
    queryKey: ['products', 'picker', typed],
    queryFn: () =>
      client.get('/api/admin/products', {
        params: {
          query: { page: 1, size: 20, ...(typed ? { search: typed } : { sort: 'title', order: 'asc' }) },
        },
      }),
    staleTime: 30_000,
    meta: { action },
  });
  const names = useQueries({
    queries: chosen.map((id) => ({
      queryKey: ['products', 'picker', 'one', id],
      queryFn: () => client.get('/api/admin/products/{id}', { params: { path: { id } } }),
      staleTime: 300_000,
      meta: { action },
    })),
  });
  const byValue = new Map<string, Choice>();
  names.forEach((answer, index) => {
    const id = chosen[index] as number;
    byValue.set(String(id), { value: String(id), label: answer.data?.title ?? `#${id}` });
  });
  for (const product of found.data ?? []) {
    byValue.set(String(product.id), { value: String(product.id), label: product.title });
  }
  return { data: [...byValue.values()], loading: found.isFetching };
}

export function ProductPicker(props: {
  label: string;
  /** Shown when nothing is chosen ("Any product"). */
  placeholder?: string;
  value: number | null;
  onChange(value: number | null): void;
  /** What loading the products is, named if the API refuses it. */
  action: string;
  nothingFound: string;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const choices = useProductChoices(search, props.value === null ? [] : [props.value], props.action);
  return (
    <Select
      label={props.label}
      placeholder={props.placeholder}
      searchable
      clearable
      data={choices.data}
      value={props.value === null ? null : String(props.value)}
      onChange={(value) => props.onChange(value === null ? null : Number(value))}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={choices.loading ? '…' : props.nothingFound}
      error={props.error}
    />
  );
}

export function ProductsPicker(props: {
  label: string;
  description?: string;
  value: number[];
  onChange(value: number[]): void;
  action: string;
  nothingFound: string;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const choices = useProductChoices(search, props.value, props.action);
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      searchable
      clearable
      data={choices.data}
      value={props.value.map(String)}
      onChange={(values) => props.onChange(values.map(Number))}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={choices.loading ? '…' : props.nothingFound}
      error={props.error}
    />
  );
}
