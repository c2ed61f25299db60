// Roles and their permissions: what each kind of staff member may do. A role is edited with the
// full list of codes the server knows (GET /api/admin/permissions), each named in the console's
// language and grouped by the area of the back office it opens (permission-areas.ts). The
// superadmin role holds every code and cannot change; built-in roles keep their names.
import {
  Accordion,
  Button,
  Checkbox,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { describeError } from '../../lib/api-errors';
import { textField, useFormErrors } from '../../lib/form-errors';
import { useSession } from '../../session/session';
import {
  arrangePermissions,
  CUSTOMER_PERMISSION_GROUP,
  type PermissionGroup,
  splitCode,
} from './permission-areas';
import { type Role, staffErrorKey } from './staff-api';

const SUPERADMIN = 'superadmin';

/** A code's name in the console's language; the code itself for one this console does not know. */
const permissionName = (t: TFunction, code: string) => t(`staff:permissions.${code}`, { defaultValue: code });
const groupName = (t: TFunction, group: string) =>
  t(`staff:permissionGroups.${group}`, { defaultValue: group });

/**
 * A role's codes in words, group by group: "Support inquiries: see, change · Feedback: see".
 * Customers' codes (the customer role) stay codes: no staff area names them.
 */
function describeCodes(t: TFunction, codes: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const code of codes) {
    const [group, action] = splitCode(code);
    const word =
      group === CUSTOMER_PERMISSION_GROUP || !t(`staff:permissions.${code}`, { defaultValue: '' })
        ? code
        : t(`staff:permissionActions.${action}`, { defaultValue: action });
    groups.set(group, [...(groups.get(group) ?? []), word]);
  }
  return [...groups].map(([group, words]) => `${groupName(t, group)}: ${words.join(', ')}`).join(' · ');
}

type Editing = { mode: 'create' } | { mode: 'edit'; role: Role };

export function RolesScreen() {
  const { t } = useTranslation('staff');
  const { client, can } = useSession();
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 300);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);

  const list = usePagedList<Role>({
    queryKey: ['staff', 'roles', { search }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/roles', {
        params: { query: { page, size, sort: 'name', order: 'asc', search: search || undefined } },
      }),
    action: t('roles.action'),
  });

  const columns: Column<Role>[] = [
    {
      key: 'name',
      header: t('roles.name'),
      cell: (r) => (
        <Stack gap={2}>
          <Group gap={6}>
            <Text size="sm" fw={600}>
              {r.name}
            </Text>
            {r.isBuiltIn && (
              <StateBadge size="xs" variant="outline" color="gray">
                {t('roles.builtIn')}
              </StateBadge>
            )}
          </Group>
          {r.description && (
            <Text size="xs" c="dimmed">
              {r.description}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'permissions',
      header: t('roles.permissions'),
      cell: (r) =>
        r.name === SUPERADMIN ? (
          <Text size="sm">{t('roles.everything')}</Text>
        ) : r.permissions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('roles.none')}
          </Text>
        ) : (
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {t('roles.codeCount', { count: r.permissions.length })}
            </Text>
            <Text size="xs">{describeCodes(t, r.permissions)}</Text>
          </Stack>
        ),
    },
  ];
  const mayUpdate = can('Roles_UPDATE');
  const mayDelete = can('Roles_DELETE');
  if (mayUpdate || mayDelete) {
    columns.push({
      key: 'actions',
      header: t('roles.actions'),
      cell: (r) =>
        r.name === SUPERADMIN ? null : (
          <Group gap="xs" wrap="nowrap">
            {mayUpdate && (
              <Button
                size="xs"
                variant="default"
                onClick={() => setEditing({ mode: 'edit', role: r })}
                aria-label={t('roles.editNamed', { name: r.name })}
              >
                {t('roles.edit')}
              </Button>
            )}
            {mayDelete && !r.isBuiltIn && (
              <Button
                size="xs"
                variant="default"
                color="red"
                onClick={() => setDeleting(r)}
                aria-label={t('roles.deleteNamed', { name: r.name })}
              >
                {t('roles.delete')}
              </Button>
            )}
          </Group>
        ),
    });
  }

  return (
    <Screen
      title={t('roles.title')}
      actions={
        can('Roles_CREATE') && (
          <Button onClick={() => setEditing({ mode: 'create' })}>{t('roles.add')}</Button>
        )
      }
    >
      <TextInput
        label={t('roles.search')}
        value={searchText}
        onChange={(event) => {
          setSearchText(event.currentTarget.value);
          list.setPage(1);
        }}
        w={280}
      />
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(r) => r.id}
        caption={t('roles.caption')}
        emptyMessage={t('roles.empty')}
      />
      {editing && <RoleForm editing={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteRole role={deleting} onClose={() => setDeleting(null)} />}
    </Screen>
  );
}

function RoleForm({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const before = editing.mode === 'edit' ? editing.role : null;
  const [name, setName] = useState(before?.name ?? '');
  const [description, setDescription] = useState(before?.description ?? '');
  const [codes, setCodes] = useState<string[]>(before?.permissions ?? []);
  const errors = useFormErrors(['name', 'description', 'permissions']);
  const catalog = useQuery({
    queryKey: ['staff', 'permissions'],
    queryFn: () => client.get('/api/admin/permissions'),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { action: t('roles.permissionsAction') },
  });

  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), description: description.trim() || null, permissions: codes };
      return before
        ? client.patch('/api/admin/roles/{id}', {
            params: { path: { id: before.id } },
            body: before.isBuiltIn ? { description: body.description, permissions: codes } : body,
          })
        : client.post('/api/admin/roles', { body });
    },
    meta: { action: before ? t('roles.editAction') : t('roles.createAction') },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['staff', 'roles'] });
      onClose();
    },
    onError: (error) => errors.show(error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const toggle = (code: string, on: boolean) => {
    setCodes((current) => (on ? [...new Set([...current, code])] : current.filter((c) => c !== code)));
    errors.clear('permissions');
  };
  const staffError = staffErrorKey(save.error);
  const codesError = errors.of('permissions');
  // On a phone the dialog takes the whole screen: the permission list needs the width.
  const phone = useMediaQuery('(max-width: 36em)');

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': t('form.close') }}
      title={before ? t('roles.editTitle', { name: before.name }) : t('roles.createTitle')}
    >
      <form onSubmit={submit}>
        <Stack>
          <FormError message={staffError ? t(staffError) : errors.formError} />
          <TextInput
            label={t('roles.name')}
            {...textField(errors, 'name', name, setName)}
            description={before?.isBuiltIn ? t('roles.builtInName') : undefined}
            disabled={before?.isBuiltIn}
            required
          />
          <Textarea
            label={t('roles.description')}
            {...textField(errors, 'description', description, setDescription)}
            autosize
            minRows={2}
          />
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600} size="sm" id="role-permissions">
                {t('roles.permissions')}
              </Text>
              <Text size="sm" c="dimmed">
                {t('roles.codeCount', { count: codes.length })}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {t('roles.keysHint')}
            </Text>
            {codesError && (
              <Text c="red.8" size="sm" role="alert">
                {codesError}
              </Text>
            )}
            {catalog.isPending ? (
              <LoadingState />
            ) : catalog.isError ? (
              <ErrorState error={catalog.error} onRetry={() => catalog.refetch()} />
            ) : (
              <PermissionPicker catalog={catalog.data} codes={codes} onToggle={toggle} />
            )}
          </Stack>
          {/* The dialog scrolls as a whole (one scrollbar); its buttons stay in view at the bottom. */}
          <Group
            justify="flex-end"
            py="sm"
            style={{
              position: 'sticky',
              bottom: 0,
              background: 'var(--mantine-color-body)',
              borderTop: '1px solid var(--mantine-color-gray-3)',
            }}
          >
            <Button variant="default" onClick={onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {before ? t('form.save') : t('roles.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Within a group: see, add, change, delete, then the group's own actions, as the server lists them. */
const ACTION_ORDER = ['READ', 'CREATE', 'UPDATE', 'DELETE'];
const actionRank = (code: string) => {
  const rank = ACTION_ORDER.indexOf(splitCode(code)[1]);
  return rank < 0 ? ACTION_ORDER.length : rank;
};
const byAction = (a: string, b: string) => actionRank(a) - actionRank(b);

/**
 * Every permission staff may be given, by area of the back office and then by group, each named
 * in words; the areas without a screen here fold away (they matter to API integrations only).
 * It grows down, never sideways: fieldsets may shrink (their default minimum is their content).
 */
function PermissionPicker({
  catalog,
  codes,
  onToggle,
}: {
  catalog: readonly PermissionGroup[];
  codes: readonly string[];
  onToggle: (code: string, on: boolean) => void;
}) {
  const { t } = useTranslation('staff');
  const areas = arrangePermissions(catalog);
  const groupsOf = (groups: PermissionGroup[]) => (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {groups.map((group) => (
        <fieldset
          key={group.module}
          style={{
            border: '1px solid var(--mantine-color-gray-3)',
            borderRadius: 4,
            padding: 8,
            margin: 0,
            minWidth: 0,
          }}
        >
          <legend>
            <Text size="sm" fw={600} span>
              {groupName(t, group.module)}
            </Text>
          </legend>
          <Stack gap={6}>
            {[...group.codes].sort(byAction).map((code) => (
              <Checkbox
                key={code}
                size="xs"
                label={permissionName(t, code)}
                checked={codes.includes(code)}
                onChange={(event) => onToggle(code, event.currentTarget.checked)}
              />
            ))}
          </Stack>
        </fieldset>
      ))}
    </SimpleGrid>
  );
  const withScreens = areas.filter((a) => a.area !== 'apiOnly');
  const apiOnly = areas.find((a) => a.area === 'apiOnly');
  const apiOnlyHeld = apiOnly?.groups.flatMap((g) => g.codes).filter((c) => codes.includes(c)).length ?? 0;
  return (
    <Stack gap="md" role="group" aria-labelledby="role-permissions">
      {withScreens.map(({ area, groups }) => (
        <section key={area} aria-labelledby={`permission-area-${area}`}>
          <Title order={3} size="h5" mb={6} id={`permission-area-${area}`}>
            {t(`permissionAreas.${area}`)}
          </Title>
          {groupsOf(groups)}
        </section>
      ))}
      {apiOnly && (
        <Accordion variant="contained" defaultValue={apiOnlyHeld > 0 ? 'apiOnly' : null}>
          <Accordion.Item value="apiOnly">
            <Accordion.Control>
              {t('permissionAreas.apiOnly')}
              {apiOnlyHeld > 0 && ` (${t('roles.codeCount', { count: apiOnlyHeld })})`}
            </Accordion.Control>
            <Accordion.Panel>
              <Text size="sm" c="dimmed" mb="sm">
                {t('permissionAreas.apiOnlyHint')}
              </Text>
              {groupsOf(apiOnly.groups)}
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      )}
    </Stack>
  );
}

function DeleteRole({ role, onClose }: { role: Role; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => client.delete('/api/admin/roles/{id}', { params: { path: { id: role.id } } }),
    meta: { action: t('roles.deleteAction') },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['staff', 'roles'] });
      onClose();
    },
  });
  const key = staffErrorKey(remove.error);
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('form.close') }}
      title={t('roles.deleteTitle', { name: role.name })}
    >
      <Stack>
        <Text size="sm">{t('roles.deleteText')}</Text>
        {remove.error && (
          <FormError message={key ? t(key) : describeError(remove.error, t)} title={t('roles.notDeleted')} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button color="red.8" onClick={() => remove.mutate()} loading={remove.isPending}>
            {t('roles.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
