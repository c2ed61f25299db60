// One campaign: its details (name, priority, window in the store's time zone), the status moves
// the lifecycle allows from where it is (docs/decisions.md, "Campaign transitions"), its
// targeting rules (a form per rule type, and a line saying in words whom it reaches), and the
// placements it runs in with the banners assigned there. Each part only for a role allowed it.
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, LoadingState } from '../../components/StatePanels';
import { StoreDateTimeInput } from '../../components/StoreDateTimeInput';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { fieldRules, textField, valueField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { wholeNumberText } from '../../lib/whole-number';
import { useSession } from '../../session/session';
import {
  checkedSave,
  handleSubmit,
  SaveRow,
  useCatalogFormErrors,
  useRefreshingMutation,
} from '../catalog/catalog-forms';
import { ConfirmButton, numberOf } from '../catalog/catalog-ui';
import { Section } from '../orders/OrderSection';
import {
  type Assignment,
  bannerPage,
  CAMPAIGN_MOVES,
  type Campaign,
  type CampaignLink,
  usePlacements,
} from './banners-api';
import { CAMPAIGN_COLOURS } from './CampaignsScreen';
import {
  DEVICES,
  OPERATORS,
  RULE_TYPES,
  type Rule,
  type RuleType,
  ruleWords,
  targetingWords,
  weekdayName,
} from './targeting-words';

type Move = (typeof CAMPAIGN_MOVES)[keyof typeof CAMPAIGN_MOVES][number];

export function CampaignScreen() {
  const { t } = useTranslation('banners');
  const { client } = useSession();
  const { publicId } = useParams({ strict: false }) as { publicId: string };
  const campaign = useQuery({
    queryKey: ['banners', 'campaign', publicId],
    queryFn: () => client.get('/api/admin/campaigns/{publicId}', { params: { path: { publicId } } }),
    meta: { action: t('actions.loadCampaign') },
  });
  if (campaign.isPending)
    return (
      <Screen title={t('campaign.title')}>
        <LoadingState />
      </Screen>
    );
  if (campaign.isError)
    return (
      <Screen title={t('campaign.title')}>
        <ErrorState error={campaign.error} onRetry={() => campaign.refetch()} />
      </Screen>
    );
  return <CampaignEditor campaign={campaign.data} />;
}

function CampaignEditor({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('banners');
  const { client, can } = useSession();
  const deleted = Boolean(campaign.deletedAt);
  const refreshes = ['banners'];
  const move = useRefreshingMutation({
    mutationFn: (action: Move) => {
      const params = { path: { publicId: campaign.publicId } };
      switch (action) {
        case 'schedule':
          return client.patch('/api/admin/campaigns/{publicId}/schedule', { params });
        case 'activate':
          return client.patch('/api/admin/campaigns/{publicId}/activate', { params });
        case 'pause':
          return client.patch('/api/admin/campaigns/{publicId}/pause', { params });
        case 'end':
          return client.patch('/api/admin/campaigns/{publicId}/end', { params });
        default:
          return client.patch('/api/admin/campaigns/{publicId}/cancel', { params });
      }
    },
    refreshes,
    action: t('actions.moveCampaign'),
  });
  const remove = useRefreshingMutation({
    mutationFn: () =>
      client.delete('/api/admin/campaigns/{publicId}', { params: { path: { publicId: campaign.publicId } } }),
    refreshes,
    action: t('actions.deleteCampaign'),
  });
  const restore = useRefreshingMutation({
    mutationFn: () =>
      client.post('/api/admin/campaigns/{publicId}/restore', {
        params: { path: { publicId: campaign.publicId } },
      }),
    refreshes,
    action: t('actions.restoreCampaign'),
  });
  // A schedule needs a start (the API refuses it without one): offered once the start is saved.
  const moves = CAMPAIGN_MOVES[campaign.status].filter((m) => m !== 'schedule' || campaign.startsAt);

  return (
    <Screen
      title={campaign.name}
      actions={
        <Group gap="xs">
          <StateBadge color={CAMPAIGN_COLOURS[campaign.status]} size="lg" role="status">
            {t(`status.${campaign.status}`)}
          </StateBadge>
          {deleted && <StateBadge color="red">{t('state.deleted')}</StateBadge>}
        </Group>
      }
    >
      {deleted ? (
        <Alert color="gray" variant="light" title={t('campaign.deletedTitle')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('campaign.deletedHelp')}</Text>
            {can('Campaigns_UPDATE') && (
              <Button size="xs" loading={restore.isPending} onClick={() => restore.mutate()}>
                {t('campaign.restore')}
              </Button>
            )}
          </Stack>
        </Alert>
      ) : (
        can('Campaigns_UPDATE') && (
          <Group gap="xs" aria-label={t('campaign.moves')} role="group">
            {moves.map((m) => (
              <Button
                key={m}
                size="sm"
                variant={m === 'activate' ? 'filled' : 'default'}
                color={m === 'cancel' ? 'red' : undefined}
                loading={move.isPending && move.variables === m}
                onClick={() => move.mutate(m)}
              >
                {t(`moves.${m}`)}
              </Button>
            ))}
            {moves.length === 0 && <Text size="sm">{t('campaign.final')}</Text>}
            {CAMPAIGN_MOVES[campaign.status].includes('schedule') && !campaign.startsAt && (
              <Text size="sm">{t('campaign.scheduleNeedsStart')}</Text>
            )}
          </Group>
        )
      )}
      <DetailsForm campaign={campaign} readOnly={deleted || !can('Campaigns_UPDATE')} />
      {!deleted && can('TargetingRules_READ') && <Targeting campaign={campaign} />}
      {!deleted && can('Assignments_READ') && <Placements campaign={campaign} />}
      {!deleted && can('Campaigns_DELETE') && (
        <Group>
          <ConfirmButton
            label={t('campaign.delete')}
            title={t('campaign.deleteTitle')}
            message={t('campaign.deleteMessage', { name: campaign.name })}
            confirmLabel={t('list.delete')}
            onConfirm={() => remove.mutateAsync()}
          />
        </Group>
      )}
    </Screen>
  );
}

function DetailsForm({ campaign, readOnly }: { campaign: Campaign; readOnly: boolean }) {
  const { t } = useTranslation('banners');
  const { client } = useSession();
  const [name, setName] = useState(campaign.name);
  const [description, setDescription] = useState(campaign.description ?? '');
  const [priority, setPriority] = useState(wholeNumberText(campaign.priority));
  const [startsAt, setStartsAt] = useState<string | null>(campaign.startsAt);
  const [endsAt, setEndsAt] = useState<string | null>(campaign.endsAt);
  const [saved, setSaved] = useState(false);
  const errors = useCatalogFormErrors({
    name: t('fields.name'),
    description: t('fields.description'),
    priority: t('fields.priority'),
    startsAt: t('fields.startsAt'),
    endsAt: t('fields.endsAt'),
  });
  const save = useRefreshingMutation({
    mutationFn: () =>
      client.patch('/api/admin/campaigns/{publicId}', {
        params: { path: { publicId: campaign.publicId } },
        body: {
          name: name.trim(),
          description: description.trim() || null,
          priority: numberOf(priority) ?? 0,
          startsAt,
          endsAt,
        },
      }),
    refreshes: ['banners'],
    onSuccess: () => setSaved(true),
    onError: (error) => {
      setSaved(false);
      errors.show(error);
    },
    action: t('actions.saveCampaign'),
  });
  const checked = checkedSave(save, () =>
    errors.check({
      name: fieldRules.text(name, { required: true, maximum: 255 }),
      priority: fieldRules.whole(priority, { maximum: 1_000_000 }),
      endsAt:
        startsAt && endsAt && Date.parse(startsAt) >= Date.parse(endsAt) ? { code: 'not_after_start' } : null,
    }),
  );
  const dateProblem = errors.code === 'CAMPAIGN_DATE_INVALID' ? (errors.message ?? undefined) : undefined;
  return (
    <Section title={t('campaign.details')}>
      <Stack gap="sm">
        <form noValidate aria-label={t('campaign.details')} onSubmit={handleSubmit(() => checked.mutate())}>
          <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0 }}>
            <Stack gap="sm">
              {errors.message && !dateProblem && (
                <Alert color="red" variant="light" role="alert">
                  {errors.message}
                </Alert>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={t('fields.name')}
                  withAsterisk
                  {...textField(errors, 'name', name, setName)}
                />
                <WholeNumberInput
                  label={t('fields.priority')}
                  description={t('campaign.priorityHelp')}
                  {...valueField(errors, 'priority', priority, setPriority)}
                />
                <StoreDateTimeInput
                  label={t('fields.startsAt')}
                  zoneNote={t('form.zoneNote')}
                  {...valueField(errors, 'startsAt', startsAt, setStartsAt)}
                />
                <StoreDateTimeInput
                  label={t('fields.endsAt')}
                  zoneNote={t('form.zoneNote')}
                  {...valueField(errors, 'endsAt', endsAt, setEndsAt)}
                  error={errors.of('endsAt') ?? dateProblem}
                />
              </SimpleGrid>
              <Textarea
                label={t('fields.description')}
                autosize
                minRows={2}
                {...textField(errors, 'description', description, setDescription)}
              />
              {!readOnly && (
                <SaveRow
                  saved={saved ? t('campaign.saved') : null}
                  busy={save.isPending}
                  label={t('campaign.save')}
                />
              )}
            </Stack>
          </fieldset>
        </form>
      </Stack>
    </Section>
  );
}

// ---------- targeting ----------

function Targeting({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('banners');
  const { client, can } = useSession();
  const language = useLanguage();
  const rules = useQuery({
    queryKey: ['banners', 'rules', campaign.publicId],
    queryFn: () =>
      client.get('/api/admin/targeting-rules', {
        params: { query: { campaignPublicId: campaign.publicId } },
      }),
    meta: { action: t('actions.loadRules') },
  });
  const remove = useRefreshingMutation({
    mutationFn: (publicId: string) =>
      client.delete('/api/admin/targeting-rules/{publicId}', { params: { path: { publicId } } }),
    refreshes: ['banners', 'rules'],
    action: t('actions.deleteRule'),
  });
  const toggle = useRefreshingMutation({
    mutationFn: (rule: { publicId: string; isActive: boolean }) =>
      client.patch('/api/admin/targeting-rules/{publicId}', {
        params: { path: { publicId: rule.publicId } },
        body: { isActive: !rule.isActive },
      }),
    refreshes: ['banners', 'rules'],
    action: t('actions.saveRule'),
  });
  const list = (rules.data ?? []) as (Rule & { publicId: string })[];
  return (
    <Section title={t('rules.title')}>
      <Stack gap="sm">
        {rules.isPending ? (
          <LoadingState />
        ) : rules.isError ? (
          <ErrorState error={rules.error} onRetry={() => rules.refetch()} />
        ) : (
          <>
            <Text size="md" fw={600} role="status" aria-label={t('rules.reaches')}>
              {t('rules.reachesLine', { words: targetingWords(list, t, language) })}
            </Text>
            {list.length === 0 ? (
              <Text size="sm">{t('rules.none')}</Text>
            ) : (
              <Stack gap={6}>
                {list.map((rule) => (
                  <Group key={rule.publicId} justify="space-between" wrap="wrap" gap="xs">
                    <Group gap="xs">
                      <StateBadge color={rule.isActive ? 'teal' : 'gray'}>
                        {t(`ruleTypes.${rule.ruleType}`)}
                      </StateBadge>
                      <Text size="sm">{ruleWords(rule, t, language)}</Text>
                    </Group>
                    <Group gap="xs">
                      {can('TargetingRules_UPDATE') && (
                        <Button size="xs" variant="default" onClick={() => toggle.mutate(rule)}>
                          {rule.isActive ? t('rules.pause') : t('rules.resume')}
                        </Button>
                      )}
                      {can('TargetingRules_DELETE') && (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          aria-label={t('rules.removeNamed', { type: t(`ruleTypes.${rule.ruleType}`) })}
                          onClick={() => remove.mutate(rule.publicId)}
                        >
                          {t('rules.remove')}
                        </Button>
                      )}
                    </Group>
                  </Group>
                ))}
              </Stack>
            )}
            {can('TargetingRules_CREATE') && <NewRuleForm campaign={campaign} />}
          </>
        )}
      </Stack>
    </Section>
  );
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const WEEK = [0, 1, 2, 3, 4, 5, 6];
const listOf = (text: string) =>
  text
    .split(/[,\s]+/)
    .map((v) => v.trim())
    .filter(Boolean);

/** Adds one rule: the type first, then the form of that type. */
function NewRuleForm({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('banners');
  const { client } = useSession();
  const language = useLanguage();
  const storeZone = useStoreTimeZone();
  const [ruleType, setRuleType] = useState<RuleType>('device');
  const [operator, setOperator] = useState('in');
  const [devices, setDevices] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [loginState, setLoginState] = useState('logged_in');
  const [newVisitor, setNewVisitor] = useState('true');
  const [from, setFrom] = useState('9');
  const [to, setTo] = useState('17');
  const [days, setDays] = useState<string[]>([]);
  const [zone, setZone] = useState(storeZone);
  const errors = useCatalogFormErrors({ value: t('rules.value'), operator: t('rules.operator') });
  const value = (): unknown => {
    switch (ruleType) {
      case 'device':
        return devices;
      case 'country':
        return listOf(text).map((c) => c.toUpperCase());
      case 'language':
      case 'user_segment':
      case 'referrer_domain':
        return listOf(text).map((v) => v.toLowerCase());
      case 'login_state':
        return loginState;
      case 'new_visitor':
        return newVisitor === 'true';
      case 'hour_of_day':
        return { from: Number(from), to: Number(to), timezone: zone };
      case 'day_of_week':
        return { days: days.map(Number), timezone: zone };
    }
  };
  const reset = () => {
    setDevices([]);
    setText('');
    setDays([]);
  };
  const save = useRefreshingMutation({
    mutationFn: () =>
      client.post('/api/admin/targeting-rules', {
        body: { campaignPublicId: campaign.publicId, ruleType, operator, value: value() },
      }),
    refreshes: ['banners', 'rules'],
    onSuccess: reset,
    onError: errors.show,
    action: t('actions.saveRule'),
  });
  const emptyList = (items: unknown) =>
    Array.isArray(items) && items.length === 0 ? { code: 'too_small', origin: 'array', minimum: 1 } : null;
  const checked = checkedSave(save, () => errors.check({ value: emptyList(value()) }));
  const choose = (next: RuleType) => {
    setRuleType(next);
    setOperator(OPERATORS[next][0] as string);
    reset();
    errors.clear();
  };
  const listy = OPERATORS[ruleType].includes('not_in');
  const zoneChoices = [...new Set([storeZone, 'UTC'])].map((z) => ({
    value: z,
    label: t(`words.zones.${z.replaceAll('/', '_')}`, { defaultValue: z }),
  }));
  const draft = value();
  const preview =
    Array.isArray(draft) && draft.length === 0
      ? null
      : ruleWords({ ruleType, operator, value: draft, isActive: true }, t, language);

  return (
    <form noValidate aria-label={t('rules.add')} onSubmit={handleSubmit(() => checked.mutate())}>
      <Paper withBorder p="sm" bg="gray.0">
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('rules.add')}
          </Title>
          {errors.message && (
            <Alert color="red" variant="light" role="alert">
              {errors.message}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <NativeSelect
              label={t('rules.type')}
              value={ruleType}
              onChange={(event) => choose(event.currentTarget.value as RuleType)}
              data={RULE_TYPES.map((r) => ({ value: r, label: t(`ruleTypes.${r}`) }))}
            />
            {listy && (
              <NativeSelect
                label={t('rules.operator')}
                value={operator}
                onChange={(event) => setOperator(event.currentTarget.value)}
                data={[
                  { value: 'in', label: t('operators.in') },
                  { value: 'not_in', label: t('operators.not_in') },
                ]}
                error={errors.of('operator')}
              />
            )}
          </SimpleGrid>
          {ruleType === 'device' && (
            <Checkbox.Group
              label={t('rules.devices')}
              value={devices}
              onChange={setDevices}
              error={errors.of('value')}
            >
              <Group mt={4}>
                {DEVICES.map((d) => (
                  <Checkbox key={d} value={d} label={t(`devices.${d}`)} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
          {(ruleType === 'country' ||
            ruleType === 'language' ||
            ruleType === 'user_segment' ||
            ruleType === 'referrer_domain') && (
            <TextInput
              label={t(`rules.listLabel.${ruleType}`)}
              description={t(`rules.listHelp.${ruleType}`)}
              {...textField(errors, 'value', text, setText)}
            />
          )}
          {ruleType === 'login_state' && (
            <SegmentedControl
              aria-label={t('ruleTypes.login_state')}
              value={loginState}
              onChange={setLoginState}
              data={[
                { value: 'logged_in', label: t('rules.loggedIn') },
                { value: 'logged_out', label: t('rules.loggedOut') },
              ]}
            />
          )}
          {ruleType === 'new_visitor' && (
            <SegmentedControl
              aria-label={t('ruleTypes.new_visitor')}
              value={newVisitor}
              onChange={setNewVisitor}
              data={[
                { value: 'true', label: t('rules.firstVisit') },
                { value: 'false', label: t('rules.returning') },
              ]}
            />
          )}
          {ruleType === 'hour_of_day' && (
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <NativeSelect
                label={t('rules.fromHour')}
                value={from}
                onChange={(event) => setFrom(event.currentTarget.value)}
                data={HOURS.map((h) => ({ value: String(h), label: `${h}:00` }))}
              />
              <NativeSelect
                label={t('rules.toHour')}
                description={t('rules.toHourHelp')}
                value={to}
                onChange={(event) => setTo(event.currentTarget.value)}
                data={HOURS.map((h) => ({ value: String(h), label: `${h}:59` }))}
              />
              <NativeSelect
                label={t('rules.zone')}
                value={zone}
                onChange={(event) => setZone(event.currentTarget.value)}
                data={zoneChoices}
              />
            </SimpleGrid>
          )}
          {ruleType === 'day_of_week' && (
            <>
              <Checkbox.Group
                label={t('rules.days')}
                value={days}
                onChange={setDays}
                error={errors.of('value')}
              >
                <Group mt={4}>
                  {WEEK.map((d) => (
                    <Checkbox key={d} value={String(d)} label={weekdayName(d, t)} />
                  ))}
                </Group>
              </Checkbox.Group>
              <NativeSelect
                label={t('rules.zone')}
                maw={280}
                value={zone}
                onChange={(event) => setZone(event.currentTarget.value)}
                data={zoneChoices}
              />
            </>
          )}
          {preview && <Text size="sm">{t('rules.preview', { words: preview })}</Text>}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('rules.addButton')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

// ---------- placements and banners ----------

function Placements({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('banners');
  const { client, can } = useSession();
  const placements = usePlacements();
  const links = useQuery({
    queryKey: ['banners', 'links', campaign.publicId],
    queryFn: () =>
      client.get('/api/admin/campaigns/{publicId}/placements', {
        params: { path: { publicId: campaign.publicId } },
      }),
    meta: { action: t('actions.loadLinks') },
  });
  const [choice, setChoice] = useState('');
  const link = useRefreshingMutation({
    mutationFn: () =>
      client.post('/api/admin/campaigns/{publicId}/placements', {
        params: { path: { publicId: campaign.publicId } },
        body: { placementPublicId: choice },
      }),
    refreshes: ['banners', 'links'],
    onSuccess: () => setChoice(''),
    action: t('actions.link'),
  });
  const linked = new Set((links.data ?? []).map((l) => l.placementPublicId));
  const free = (placements.data ?? []).filter((p) => !linked.has(p.publicId));
  return (
    <Section title={t('links.title')}>
      <Stack gap="sm">
        {links.isPending ? (
          <LoadingState />
        ) : links.isError ? (
          <ErrorState error={links.error} onRetry={() => links.refetch()} />
        ) : (
          <>
            {links.data.length === 0 && <Text size="sm">{t('links.none')}</Text>}
            {links.data.map((l) => (
              <LinkBlock
                key={l.placementPublicId}
                link={l}
                label={
                  placements.data?.find((p) => p.publicId === l.placementPublicId)?.label ?? l.placementSlug
                }
              />
            ))}
            {can('Assignments_CREATE') && free.length > 0 && (
              <form
                noValidate
                aria-label={t('links.add')}
                onSubmit={handleSubmit(() => choice && link.mutate())}
              >
                <Group align="flex-end" gap="sm">
                  <NativeSelect
                    label={t('links.add')}
                    value={choice}
                    onChange={(event) => setChoice(event.currentTarget.value)}
                    data={[
                      { value: '', label: t('links.choose') },
                      ...free.map((p) => ({ value: p.publicId, label: `${p.label} (${p.slug})` })),
                    ]}
                  />
                  <Button type="submit" variant="default" disabled={!choice} loading={link.isPending}>
                    {t('links.addButton')}
                  </Button>
                </Group>
              </form>
            )}
          </>
        )}
      </Stack>
    </Section>
  );
}

function LinkBlock({ link, label }: { link: CampaignLink; label: string }) {
  const { t } = useTranslation('banners');
  const { client, can } = useSession();
  const path = { publicId: link.campaignPublicId, placementPublicId: link.placementPublicId };
  const assignments = useQuery({
    queryKey: ['banners', 'links', link.campaignPublicId, link.placementPublicId],
    queryFn: () =>
      client.get('/api/admin/campaigns/{publicId}/placements/{placementPublicId}/banners', {
        params: { path },
      }),
    meta: { action: t('actions.loadAssignments') },
  });
  const banners = useQuery({
    queryKey: ['banners', 'banners', 'choices'],
    queryFn: () => bannerPage(client, { size: 100, isActive: 'true' }),
    enabled: can('Banners_READ') && can('Assignments_CREATE'),
  });
  const [choice, setChoice] = useState('');
  const refreshes = ['banners', 'links'];
  const unlink = useRefreshingMutation({
    mutationFn: () =>
      client.delete('/api/admin/campaigns/{publicId}/placements/{placementPublicId}', { params: { path } }),
    refreshes,
    action: t('actions.unlink'),
  });
  const assign = useRefreshingMutation({
    mutationFn: () =>
      client.post('/api/admin/campaigns/{publicId}/placements/{placementPublicId}/banners', {
        params: { path },
        body: { bannerPublicId: choice, displayOrder: assignments.data?.length ?? 0 },
      }),
    refreshes,
    onSuccess: () => setChoice(''),
    action: t('actions.assign'),
  });
  const unassign = useRefreshingMutation({
    mutationFn: (a: Assignment) =>
      client.delete(
        '/api/admin/campaigns/{publicId}/placements/{placementPublicId}/banners/{bannerPublicId}',
        {
          params: { path: { ...path, bannerPublicId: a.bannerPublicId } },
        },
      ),
    refreshes,
    action: t('actions.unassign'),
  });
  const assigned = new Set((assignments.data ?? []).map((a) => a.bannerPublicId));
  const free = (banners.data?.data ?? []).filter((b) => !assigned.has(b.publicId));
  return (
    <Paper withBorder p="sm" aria-label={t('links.named', { name: label })} component="section">
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={600}>{label}</Text>
            {!link.isActive && <StateBadge color="gray">{t('state.inactive')}</StateBadge>}
          </Group>
          {can('Assignments_DELETE') && (
            <ConfirmButton
              size="xs"
              label={t('links.unlink')}
              aria-label={t('links.unlinkNamed', { name: label })}
              title={t('links.unlinkTitle')}
              message={t('links.unlinkMessage', { name: label })}
              confirmLabel={t('links.unlink')}
              onConfirm={() => unlink.mutateAsync()}
            />
          )}
        </Group>
        {assignments.isPending ? (
          <LoadingState />
        ) : assignments.isError ? (
          <ErrorState error={assignments.error} onRetry={() => assignments.refetch()} />
        ) : assignments.data.length === 0 ? (
          <Text size="sm">{t('links.noBanners')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={300}>
            <Table aria-label={t('links.bannersIn', { name: label })}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields.title')}</Table.Th>
                  <Table.Th ta="right">{t('fields.displayOrder')}</Table.Th>
                  <Table.Th>{t('list.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {assignments.data.map((a) => (
                  <Table.Tr key={a.bannerPublicId}>
                    <Table.Td>
                      {a.bannerTitle}
                      {a.isFallback && ` · ${t('links.fallback')}`}
                    </Table.Td>
                    <Table.Td ta="right">{formatCount(a.displayOrder)}</Table.Td>
                    <Table.Td>
                      {can('Assignments_DELETE') && (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          aria-label={t('links.unassignNamed', { name: a.bannerTitle })}
                          onClick={() => unassign.mutate(a)}
                        >
                          {t('links.unassign')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {can('Assignments_CREATE') && can('Banners_READ') && (
          <form
            noValidate
            aria-label={t('links.assignTo', { name: label })}
            onSubmit={handleSubmit(() => choice && assign.mutate())}
          >
            <Group align="flex-end" gap="sm">
              <NativeSelect
                label={t('links.assignTo', { name: label })}
                value={choice}
                onChange={(event) => setChoice(event.currentTarget.value)}
                data={[
                  { value: '', label: t('links.chooseBanner') },
                  ...free.map((b) => ({ value: b.publicId, label: b.title })),
                ]}
              />
              <Button type="submit" variant="default" disabled={!choice} loading={assign.isPending}>
                {t('links.assignButton')}
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
