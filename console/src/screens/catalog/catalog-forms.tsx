// The pieces of the catalog's edit forms: errors with the catalog's own refusals, the dialog a
// small form sits in, a write that refreshes the lists it changed, the name and slug inputs, an
// image upload, and the row with the Save button.
import { Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/StatePanels';
import { isPasalError, isRefused } from '../../lib/api-errors';
import { textField, useFormErrors } from '../../lib/form-errors';
import { useSession } from '../../session/session';
import { uploadFiles } from './catalog-api';
import { FilePicker, useDescribeCatalogError } from './catalog-ui';

/**
 * useFormErrors plus the catalog's own refusals: validation details go under their inputs, a
 * business refusal (`PRODUCT_SLUG_EXISTS`, `STOCK_BELOW_RESERVED`) becomes the form's message in
 * the admin's language, a refusal of the role is left to the notification.
 */
export function useCatalogFormErrors(
  fields: readonly string[] | Readonly<Record<string, string>>,
  /** Another area's namespace whose `errorCodes` word its refusals (useDescribeCatalogError). */
  namespace?: string,
) {
  const errors = useFormErrors(fields);
  const describe = useDescribeCatalogError(namespace);
  const [problem, setProblem] = useState<{ code: string; message: string } | null>(null);
  return {
    of: errors.of,
    /** The message about the form as a whole, or null. */
    message: errors.formError ?? problem?.message ?? null,
    /** The errorCode of the business refusal shown, to place it under an input instead. */
    code: problem?.code ?? null,
    show(error: unknown) {
      if (isRefused(error) || isPasalError(error, 'VALIDATION_ERROR')) {
        errors.show(error);
        setProblem(null);
      } else {
        errors.clear();
        setProblem({ code: isPasalError(error) ? error.errorCode : '', message: describe(error) });
      }
    },
    /** The browser's check before sending (FormErrors.check): true when there is no problem. */
    check(problems: Parameters<typeof errors.check>[0]) {
      setProblem(null);
      return errors.check(problems);
    },
    clear(field?: string) {
      errors.clear(field);
      setProblem(null);
    },
  };
}

/**
 * A dialog holding a small form (a category, a brand, a district's fee), open while it is
 * shown: the form's message from `errors`, and the submit that runs `save` ("Create" for a new
 * record, "Save" for a change).
 */
export function FormDialog(props: {
  onClose(): void;
  title: string;
  label: string;
  errors: { message: string | null };
  save: { isPending: boolean; mutate(): void };
  creating?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('catalog');
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered size="lg">
      <form
        noValidate
        aria-label={props.label}
        onSubmit={(event) => {
          event.preventDefault();
          props.save.mutate();
        }}
      >
        <Stack gap="sm">
          <FormError message={props.errors.message} />
          {props.children}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={props.save.isPending}>
              {props.creating ? t('common.create') : t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export type CatalogFormErrors = ReturnType<typeof useCatalogFormErrors>;

/** A form's submit without the browser's page load: `onSubmit={handleSubmit(() => save.mutate())}`. */
/** A save that is sent only once the browser's own check (`errors.check`) finds nothing. */
export function checkedSave(save: { isPending: boolean; mutate(): void }, check: () => boolean) {
  return {
    isPending: save.isPending,
    mutate: () => {
      if (check()) save.mutate();
    },
  };
}

export function handleSubmit(action: () => void) {
  return (event: FormEvent) => {
    event.preventDefault();
    action();
  };
}

/**
 * A write that refreshes the lists it changed (every query under `refreshes`) once it succeeds.
 * The mutation ends when the refreshed lists are in, so a dialog that awaits it closes on the
 * new list, not the old one.
 */
export function useRefreshingMutation<Input = void, Output = unknown>(opts: {
  mutationFn(input: Input): Promise<Output>;
  refreshes: readonly unknown[];
  action: string;
  onSuccess?(output: Output): void;
  onError?(error: unknown): void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: opts.mutationFn,
    onSuccess: (output: Output) => {
      const refreshed = queryClient.invalidateQueries({ queryKey: opts.refreshes });
      opts.onSuccess?.(output);
      return refreshed;
    },
    onError: opts.onError,
    meta: { action: opts.action },
  });
}

/**
 * The slug is the record's address: sent only when staff changed it on purpose (left empty, the
 * API makes one from the name).
 */
export function changedSlug(slug: string, current: string | undefined): { slug?: string } {
  const typed = slug.trim();
  return typed && typed !== current ? { slug: typed } : {};
}

/**
 * The name and slug inputs of a brand, category or tag. `slugTaken` is the errorCode the API
 * answers when another record already has the slug; its message then goes under the slug.
 */
export function NameSlugFields(props: {
  name: string;
  onName(name: string): void;
  slug: string;
  onSlug(slug: string): void;
  errors: CatalogFormErrors;
  slugTaken: string;
}) {
  const { t } = useTranslation('catalog');
  const { errors } = props;
  return (
    <>
      <TextInput
        label={t('fields.name')}
        withAsterisk
        {...textField(errors, 'name', props.name, props.onName)}
      />
      <TextInput
        label={t('fields.slug')}
        description={t('fields.slugHint')}
        {...textField(errors, 'slug', props.slug, props.onSlug)}
        error={errors.of('slug') ?? (errors.code === props.slugTaken ? errors.message : undefined)}
      />
    </>
  );
}

/**
 * One public image (a brand's logo, a category's picture) uploaded as a thumbnail; its address
 * goes to `onUploaded`. Shown only to a role that may upload.
 */
export function ImageUploadPicker(props: { label: string; onUploaded(url: string): void }) {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const describe = useDescribeCatalogError();
  const upload = useMutation({
    mutationFn: (files: File[]) => uploadFiles(client, files.slice(0, 1), 'thumbnail'),
    onSuccess: ([stored]) => stored && props.onUploaded(stored.url),
    meta: { action: t('actions.uploadImages') },
  });
  if (!can('Uploads_CREATE')) return null;
  return (
    <FilePicker
      label={props.label}
      description={t('fields.uploadPublicHint')}
      accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
      disabled={upload.isPending}
      error={upload.isError && !isRefused(upload.error) ? describe(upload.error) : undefined}
      onFiles={(files) => upload.mutate(files)}
    />
  );
}

/** The end of a page's form: "Saved" once a save went through, and the submit button. */
export function SaveRow(props: { saved: string | null; busy: boolean; label: string }) {
  return (
    <Group justify="flex-end">
      {props.saved && (
        <Text role="status" size="sm" c="teal.9">
          {props.saved}
        </Text>
      )}
      <Button type="submit" loading={props.busy}>
        {props.label}
      </Button>
    </Group>
  );
}

/** Whether a brand or category is in use (shown to shoppers and offered to staff). */
export function ActiveSwitch(props: { checked: boolean; onChange(checked: boolean): void }) {
  const { t } = useTranslation('catalog');
  return (
    <Switch
      label={t('fields.activeLabel')}
      checked={props.checked}
      onChange={(event) => props.onChange(event.currentTarget.checked)}
    />
  );
}
