// Admin accounts: who works in the back office, with which role. Add someone (with a password,
// or without one to email them an invitation), change their name, email or role, and stop or
// restore their access. Deactivating ends their sessions at once (the API does that).
import { Button, Group, Modal, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { FormError } from '../../components/StatePanels';
import { describeError } from '../../lib/api-errors';
import { fieldRules, useFormErrors } from '../../lib/form-errors';
import { useSession } from '../../session/session';
import { type AdminUser, staffErrorKey, useAdminRoles } from './staff-api';

type Editing = { mode: 'create' } | { mode: 'edit'; admin: AdminUser };

export function StaffScreen() {
  const { t } = useTranslation('staff');
  const { client, can } = useSession();
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 300);
  const [role, setRole] = useState<string | null>(null);
  const [state, setState] = useState<'true' | 'false' | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [toggling, setToggling] = useState<AdminUser | null>(null);
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const roles = useAdminRoles();
  const filters = { search: search || undefined, role: role ?? undefined, isActive: state ?? undefined };

  const list = usePagedList<AdminUser>({
    queryKey: ['staff', 'admins', filters],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/users', {
        params: { query: { page, size, sort: 'name', order: 'asc', ...filters } },
      }),
    action: t('admins.action'),
  });

  const columns: Column<AdminUser>[] = [
    {
      key: 'name',
      header: t('admins.name'),
      cell: (a) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {a.name}
          </Text>
          <Text size="xs" c="dimmed">
            {a.email}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'role',
      header: t('admins.role'),
      cell: (a) => (
        <StateBadge variant="light" color="indigo">
          {a.role}
        </StateBadge>
      ),
    },
    {
      key: 'state',
      header: t('admins.state'),
      cell: (a) => (
        <StateBadge color={a.isActive ? 'teal' : 'gray'}>
          {a.isActive ? t('admins.active') : t('admins.inactive')}
        </StateBadge>
      ),
    },
    {
      key: 'twoFactor',
      header: t('admins.twoFactor'),
      cell: (a) => (
        <StateBadge color={a.twoFactorEnabled ? 'teal' : 'gray'}>
          {a.twoFactorEnabled ? t('admins.twoFactorOn') : t('admins.twoFactorOff')}
        </StateBadge>
      ),
    },
    {
      key: 'lastLogin',
      header: t('admins.lastLogin'),
      cell: (a) => (a.lastLoginAt ? <StoreDateTime value={a.lastLoginAt} size="sm" /> : t('admins.never')),
    },
  ];
  if (can('AdminUsers_UPDATE')) {
    columns.push({
      key: 'actions',
      header: t('admins.actions'),
      cell: (a) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            onClick={() => setEditing({ mode: 'edit', admin: a })}
            aria-label={t('admins.editNamed', { name: a.name })}
          >
            {t('admins.edit')}
          </Button>
          <Button
            size="xs"
            variant="default"
            color={a.isActive ? 'red' : undefined}
            onClick={() => setToggling(a)}
            aria-label={t(a.isActive ? 'admins.deactivateNamed' : 'admins.activateNamed', { name: a.name })}
          >
            {a.isActive ? t('admins.deactivate') : t('admins.activate')}
          </Button>
          {a.twoFactorEnabled && (
            <Button
              size="xs"
              variant="default"
              color="red"
              onClick={() => setResetting(a)}
              aria-label={t('twoFactorReset.buttonNamed', { name: a.name })}
            >
              {t('twoFactorReset.button')}
            </Button>
          )}
        </Group>
      ),
    });
  }

  return (
    <Screen
      title={t('admins.title')}
      actions={
        can('AdminUsers_CREATE') && (
          <Button onClick={() => setEditing({ mode: 'create' })}>{t('admins.add')}</Button>
        )
      }
    >
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('admins.search')}
          description={t('admins.searchHint')}
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            list.setPage(1);
          }}
          w={280}
        />
        {roles && (
          <Select
            label={t('admins.role')}
            placeholder={t('admins.anyRole')}
            data={roles.map((r) => r.name)}
            value={role}
            onChange={(value) => {
              setRole(value);
              list.setPage(1);
            }}
            clearable
            w={200}
          />
        )}
        <Select
          label={t('admins.state')}
          placeholder={t('admins.anyState')}
          data={[
            { value: 'true', label: t('admins.active') },
            { value: 'false', label: t('admins.inactive') },
          ]}
          value={state}
          onChange={(value) => {
            setState(value as typeof state);
            list.setPage(1);
          }}
          clearable
          w={180}
        />
      </Group>
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(a) => a.id}
        caption={t('admins.caption')}
        emptyMessage={t('admins.empty')}
      />
      {editing && <AdminForm editing={editing} onClose={() => setEditing(null)} />}
      {toggling && <ToggleAccess admin={toggling} onClose={() => setToggling(null)} />}
      {resetting && <ResetTwoFactor admin={resetting} onClose={() => setResetting(null)} />}
    </Screen>
  );
}

function AdminForm({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const roles = useAdminRoles();
  const before = editing.mode === 'edit' ? editing.admin : null;
  const [name, setName] = useState(before?.name ?? '');
  const [email, setEmail] = useState(before?.email ?? '');
  const [role, setRole] = useState(before?.role ?? '');
  const [password, setPassword] = useState('');
  const errors = useFormErrors({
    name: t('form.name'),
    email: t('form.email'),
    role: t('form.role'),
    password: t('form.password'),
  });

  const save = useMutation({
    mutationFn: () =>
      before
        ? client.patch('/api/admin/users/{id}', {
            params: { path: { id: before.id } },
            // Only what changed: an unchanged email or role is not a change the API must check.
            body: {
              ...(name !== before.name ? { name } : {}),
              ...(email !== before.email ? { email } : {}),
              ...(role !== before.role ? { role } : {}),
            },
          })
        : client.post('/api/admin/users', {
            body: { name, email, role, ...(password ? { password } : {}) },
          }),
    meta: { action: before ? t('form.editAction') : t('form.createAction') },
    onSuccess: (admin) => {
      void queryClient.invalidateQueries({ queryKey: ['staff', 'admins'] });
      void queryClient.invalidateQueries({ queryKey: ['support', 'admins'] });
      notifications.show({
        color: 'teal',
        closeButtonProps: { 'aria-label': t('common:dismiss') },
        message: before
          ? t('form.saved', { name: admin.name })
          : password
            ? t('form.created', { name: admin.name })
            : t('form.invited', { name: admin.name, email: admin.email }),
      });
      onClose();
    },
    onError: (error) => errors.show(error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = errors.check({
      name: fieldRules.text(name, { required: true }),
      email: fieldRules.email(email, { required: true }),
    });
    if (checked) save.mutate();
  };
  const field =
    (key: string, set: (value: string) => void) => (event: { currentTarget: { value: string } }) => {
      set(event.currentTarget.value);
      errors.clear(key);
    };

  return (
    <Modal
      opened
      onClose={onClose}
      title={before ? t('form.editTitle', { name: before.name }) : t('form.createTitle')}
      closeButtonProps={{ 'aria-label': t('form.cancel') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormError message={staffErrorKey(save.error) ? t(staffErrorKey(save.error)!) : errors.formError} />
          <TextInput
            label={t('form.name')}
            value={name}
            onChange={field('name', setName)}
            error={errors.of('name')}
            required
          />
          <TextInput
            label={t('form.email')}
            type="email"
            value={email}
            onChange={field('email', setEmail)}
            error={errors.of('email')}
            required
          />
          {roles ? (
            <Select
              label={t('form.role')}
              data={roles.map((r) => ({ value: r.name, label: r.name }))}
              value={role || null}
              onChange={(value) => {
                setRole(value ?? '');
                errors.clear('role');
              }}
              error={errors.of('role')}
              allowDeselect={false}
              required
            />
          ) : (
            <TextInput
              label={t('form.role')}
              value={role}
              onChange={field('role', setRole)}
              error={errors.of('role')}
              required
            />
          )}
          {!before && (
            <PasswordInput
              label={t('form.password')}
              description={t('form.passwordHint')}
              value={password}
              onChange={field('password', setPassword)}
              error={errors.of('password')}
              autoComplete="new-password"
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {before ? t('form.save') : password ? t('form.create') : t('form.invite')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ToggleAccess({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const deactivate = admin.isActive;
  const toggle = useMutation({
    mutationFn: () =>
      deactivate
        ? client.patch('/api/admin/users/{id}/deactivate', { params: { path: { id: admin.id } } })
        : client.patch('/api/admin/users/{id}/activate', { params: { path: { id: admin.id } } }),
    meta: { action: deactivate ? t('access.deactivateAction') : t('access.activateAction') },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['staff', 'admins'] });
      void queryClient.invalidateQueries({ queryKey: ['support', 'admins'] });
      onClose();
    },
  });
  return (
    <ConfirmAdminChange
      title={
        deactivate
          ? t('access.deactivateTitle', { name: admin.name })
          : t('access.activateTitle', { name: admin.name })
      }
      text={deactivate ? t('access.deactivateText') : t('access.activateText')}
      confirmLabel={deactivate ? t('admins.deactivate') : t('admins.activate')}
      destructive={deactivate}
      change={toggle}
      onClose={onClose}
    />
  );
}

/** Asks before a change to another admin's account, and shows the API's refusal in the staff's words. */
function ConfirmAdminChange(props: {
  title: string;
  text: string;
  confirmLabel: string;
  destructive: boolean;
  change: { mutate(): void; isPending: boolean; error: Error | null };
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const failure = props.change.error;
  const failureKey = staffErrorKey(failure);
  return (
    <Modal opened onClose={props.onClose} title={props.title}>
      <Stack>
        <Text size="sm">{props.text}</Text>
        {failure && (
          <FormError
            message={failureKey ? t(failureKey) : describeError(failure, t)}
            title={t('access.failed')}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('form.cancel')}
          </Button>
          <Button
            color={props.destructive ? 'red.8' : undefined}
            onClick={() => props.change.mutate()}
            loading={props.change.isPending}
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A lost phone: the admin's two-factor sign-in is reset and they are signed out everywhere;
 * they sign in with the password alone and turn it on again. A superadmin's only by a superadmin
 * (the API answers 403 otherwise, shown here).
 */
function ResetTwoFactor({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: () => client.delete('/api/admin/users/{id}/2fa', { params: { path: { id: admin.id } } }),
    meta: { action: t('twoFactorReset.action') },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['staff', 'admins'] });
      notifications.show({ color: 'teal', message: t('twoFactorReset.done', { name: admin.name }) });
      onClose();
    },
  });
  return (
    <ConfirmAdminChange
      title={t('twoFactorReset.title', { name: admin.name })}
      text={t('twoFactorReset.text')}
      confirmLabel={t('twoFactorReset.confirm')}
      destructive
      change={reset}
      onClose={onClose}
    />
  );
}
