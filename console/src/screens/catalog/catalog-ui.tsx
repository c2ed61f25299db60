// Small pieces the catalog screens share: error words with the catalog's own codes, the
// filters of a list kept in the address and its search box, a money input in NPR with lakh
// grouping, a file input, a button that asks before it deletes, and a row's Edit / Delete.
// The pieces of the edit forms are in catalog-forms.tsx.
import {
  Alert,
  Badge,
  Button,
  type ButtonProps,
  FileInput,
  Group,
  Modal,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import {
  type ChangeEvent,
  type ReactElement,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { ListPage, PagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanels';
import { WholeNumberInput, type WholeNumberInputProps } from '../../components/WholeNumberInput';
import { describeError, isPasalError, isRefused } from '../../lib/api-errors';
import { wholeNumberOf } from '../../lib/whole-number';
import { type PermissionCode, useSession } from '../../session/session';
import type { Product } from './catalog-api';

/**
 * One sentence for an error: the catalog's codes (`CATEGORY_NOT_EMPTY`, `BRAND_IN_USE`, …) in the
 * admin's language from this namespace, everything else as the console words it. Another area
 * using these forms (the blog) names its own namespace, whose `errorCodes` are looked in first.
 */
export function useDescribeCatalogError(namespace = 'catalog') {
  const { t } = useTranslation([namespace, 'catalog']);
  return useCallback(
    (error: unknown) => {
      if (!isPasalError(error)) return describeError(error, t);
      const key = [namespace, 'catalog']
        .map((ns) => `${ns}:errorCodes.${error.errorCode}`)
        .find((candidate) => t(candidate, { defaultValue: '' }));
      return key ? t(key) : describeError(error, t);
    },
    [t, namespace],
  );
}

/**
 * A list's filters in the address (`?search=bowl&status=draft`), so a reload, Back and a shared
 * link keep them. Changing one goes back to the first page.
 */
export function useUrlFilters<Key extends string>(keys: readonly Key[]) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const values = Object.fromEntries(
    keys.map((key) => {
      const value = search[key];
      return [key, value === undefined || value === null || value === '' ? undefined : String(value)];
    }),
  ) as Record<Key, string | undefined>;
  const set = useCallback(
    (key: Key, value: string | null | undefined) => {
      void navigate({
        to: '.',
        search: (previous: Record<string, unknown>) => ({
          ...previous,
          [key]: value === null || value === '' ? undefined : value,
          page: undefined,
        }),
      } as never);
    },
    [navigate],
  );
  return { values, set };
}

/**
 * The search box of a list: what staff type shows at once, and goes to the address (`?search=`)
 * after a pause in typing, not on every key. Spread the answer on a TextInput.
 */
export function useSearchText(
  values: { search?: string | undefined },
  set: (key: 'search', value: string) => void,
) {
  const [searchText, setSearchText] = useState(values.search ?? '');
  const [debounced] = useDebouncedValue(searchText.trim(), 350);
  useEffect(() => {
    if (debounced !== (values.search ?? '')) set('search', debounced);
  }, [debounced, values.search, set]);
  return {
    value: searchText,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setSearchText(event.currentTarget.value),
  };
}

/** The `isActive` filter as the API takes it: 'true', 'false', or none (anything else). */
export function activeFilterOf(value: string | undefined): 'true' | 'false' | undefined {
  return value === 'true' || value === 'false' ? value : undefined;
}

/** Whole NPR as staff type it: digits only, lakh grouping once typed (WholeNumberInput). */
export function MoneyInput(props: Omit<WholeNumberInputProps, 'money'>) {
  return <WholeNumberInput money {...props} />;
}

/** What a whole-number input holds ("" when empty) as the API takes it: a number, or undefined. */
export const numberOf = wholeNumberOf;

/**
 * A labelled file picker in Mantine's own look, worded in the admin's language (the browser's
 * native input says "Choose Files / No file chosen" in the browser's language). The files go to
 * `onFiles`, then the picker is emptied so the same file can be chosen again.
 */
export function FilePicker(props: {
  label: string;
  description?: string;
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  error?: string;
  onFiles(files: File[]): void;
}) {
  const { t } = useTranslation('catalog');
  const reset = useRef<() => void>(null);
  const take = (chosen: File | File[] | null) => {
    const files = chosen === null ? [] : Array.isArray(chosen) ? chosen : [chosen];
    reset.current?.();
    if (files.length > 0) props.onFiles(files);
  };
  const common = {
    label: props.label,
    description: props.description,
    accept: props.accept,
    disabled: props.disabled,
    error: props.error,
    placeholder: props.multiple ? t('fields.chooseFiles') : t('fields.chooseFile'),
    resetRef: reset,
    leftSection: <IconUpload />,
    maw: 360,
    // Mantine's placeholder grey is too faint on white (WCAG AA): the words are the control's text.
    styles: { placeholder: { color: 'var(--mantine-color-gray-7)' } },
  };
  return props.multiple ? (
    <FileInput {...common} multiple value={[]} onChange={take} />
  ) : (
    <FileInput {...common} value={null} onChange={take} />
  );
}

/** An upload arrow, drawn here: the console carries no icon set. */
function IconUpload() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden
    >
      <path d="M12 16V4M6 10l6-6 6 6M4 20h16" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function ActiveBadge({ active }: { active: boolean }) {
  const { t } = useTranslation('catalog');
  return (
    <Badge color={active ? 'teal.9' : 'gray.7'} variant="filled">
      {active ? t('common.active') : t('common.inactive')}
    </Badge>
  );
}

/**
 * A button that asks before doing something that cannot be undone (delete, archive, revoke). A
 * refusal the API explains (a category that still has products) stays in the dialog; a refusal
 * of the role is the console-wide notification's.
 */
export function ConfirmButton(
  props: {
    label: string;
    title: string;
    message: ReactNode;
    confirmLabel: string;
    onConfirm(): Promise<unknown>;
    'aria-label'?: string;
    /** The area whose `errorCodes` word a refusal (useDescribeCatalogError). */
    errorNamespace?: string;
  } & ButtonProps,
) {
  const { t } = useTranslation('catalog');
  const describe = useDescribeCatalogError(props.errorNamespace);
  const [opened, { open, close }] = useDisclosure(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const {
    label,
    title,
    message,
    confirmLabel,
    onConfirm,
    'aria-label': ariaLabel,
    errorNamespace: _namespace,
    ...button
  } = props;
  const dismiss = () => {
    setError(null);
    close();
  };
  return (
    <>
      <Button color="red" variant="light" aria-label={ariaLabel} onClick={open} {...button}>
        {label}
      </Button>
      <Modal opened={opened} onClose={dismiss} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={dismiss}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                  dismiss();
                } catch (failure) {
                  if (isRefused(failure)) dismiss();
                  else setError(describe(failure));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/**
 * A list row's Edit and Delete buttons, each shown only to a role that may use it. Delete asks
 * first (ConfirmButton); both name the row for screen readers ("Edit Himalayan Crafts").
 */
export function RowActions(props: {
  name: string;
  editPermission: PermissionCode;
  onEdit(): void;
  deletePermission: PermissionCode;
  deleteTitle: string;
  deleteMessage: string;
  onDelete(): Promise<unknown>;
  /** The area whose `errorCodes` word a refused delete. */
  errorNamespace?: string;
}) {
  const { t } = useTranslation('catalog');
  const { can } = useSession();
  return (
    <Group gap="xs" wrap="nowrap">
      {can(props.editPermission) && (
        <Button
          size="xs"
          variant="default"
          onClick={props.onEdit}
          aria-label={t('common.editNamed', { name: props.name })}
        >
          {t('common.edit')}
        </Button>
      )}
      {can(props.deletePermission) && (
        <ConfirmButton
          size="xs"
          label={t('common.delete')}
          aria-label={t('common.deleteNamed', { name: props.name })}
          title={props.deleteTitle}
          message={props.deleteMessage}
          confirmLabel={t('common.delete')}
          onConfirm={props.onDelete}
          errorNamespace={props.errorNamespace}
        />
      )}
    </Group>
  );
}

export function StatusBadge({ status }: { status: Product['status'] }) {
  const { t } = useTranslation('catalog');
  const color = status === 'published' ? 'teal.9' : status === 'draft' ? 'blue.9' : 'gray.7';
  return (
    <Badge color={color} variant="filled">
      {t(`status.${status}`)}
    </Badge>
  );
}

/**
 * A record's screen while the record cannot be shown yet: an address without a valid id, the
 * record loading, or its load failed (with Retry). Null once the record is there.
 */
export function pendingRecordScreen(props: {
  title: string;
  id: number | undefined;
  query: UseQueryResult<unknown>;
  notFound: string;
  loadFailed?: string;
}): ReactElement | null {
  const { query } = props;
  let state: ReactElement;
  if (props.id === undefined) state = <EmptyState message={props.notFound} />;
  else if (query.isPending) state = <LoadingState />;
  else if (query.isError)
    state = <ErrorState error={query.error} onRetry={() => query.refetch()} title={props.loadFailed} />;
  else return null;
  return <Screen title={props.title}>{state}</Screen>;
}

/**
 * A paged list inside a screen that has one of its own (a product's stock ledger, its keys): the
 * page is kept in the component, not the address, so it does not move the screen's list.
 */
export function useLocalPagedList<Row>(opts: {
  queryKey: readonly unknown[];
  fetchPage(window: { page: number; size: number }): Promise<ListPage<Row>>;
  size?: number;
  action?: string;
  enabled?: boolean;
}): PagedList<Row> {
  const [page, setPage] = useState(1);
  const size = opts.size ?? 10;
  const query = useQuery({
    queryKey: [...opts.queryKey, { page, size }],
    queryFn: () => opts.fetchPage({ page, size }),
    placeholderData: keepPreviousData,
    enabled: opts.enabled,
    meta: { action: opts.action },
  });
  return { query, page, size, setPage };
}

/** Active / inactive / any, for the lists that filter on `isActive`. */
export function ActiveFilter(props: {
  value: string | undefined;
  onChange(value: string | null): void;
  /** The filter's label, when "Status" is not the word (a district's delivery). */
  labelKey?: string;
}) {
  const { t } = useTranslation('catalog');
  return (
    <Select
      label={t(props.labelKey ?? 'fields.status')}
      placeholder={t('common.any')}
      clearable
      value={props.value ?? null}
      onChange={props.onChange}
      data={[
        { value: 'true', label: t('common.active') },
        { value: 'false', label: t('common.inactive') },
      ]}
    />
  );
}
