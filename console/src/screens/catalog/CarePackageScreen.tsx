// One care package: create it (`/catalog/care-packages/new`) or edit it, with its pricing tiers
// (label, months of cover, price in NPR) and the rules saying which products it covers
// (categories with their sub-categories, brands, single products, an effective-price range).
// No rule at all means every physical product.
import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  MultiSelect,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Screen } from '../../components/Screen';
import { FormError } from '../../components/StatePanels';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { fieldRules, textField, valueField } from '../../lib/form-errors';
import { wholeNumberText } from '../../lib/whole-number';
import { Can, useSession } from '../../session/session';
import { type CarePackage, type Choice, idOf, useBrandChoices, useCategoryChoices } from './catalog-api';
import { handleSubmit, SaveRow, useCatalogFormErrors } from './catalog-forms';
import { ConfirmButton, MoneyInput, numberOf, pendingRecordScreen } from './catalog-ui';

interface TierDraft {
  id?: number;
  label: string;
  durationMonths: string;
  price: string;
  isActive: boolean;
}

export function NewCarePackageScreen() {
  const { t } = useTranslation('catalog');
  return (
    <Screen title={t('carePackages.newTitle')}>
      <CarePackageForm />
    </Screen>
  );
}

export function CarePackageScreen() {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const params = useParams({ strict: false }) as { carePackageId?: string };
  const id = idOf(params.carePackageId);
  const carePackage = useQuery({
    queryKey: ['catalog', 'care-package', id],
    queryFn: () => client.get('/api/admin/care-packages/{id}', { params: { path: { id: id as number } } }),
    enabled: id !== undefined,
    meta: { action: t('actions.loadCarePackage') },
  });
  const remove = useMutation({
    mutationFn: () =>
      client.delete('/api/admin/care-packages/{id}', { params: { path: { id: id as number } } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'care-packages'] });
      void navigate({ to: '/catalog/care-packages' });
    },
    meta: { action: t('actions.deleteCarePackage') },
  });

  const pending = pendingRecordScreen({
    title: t('carePackages.one'),
    id,
    query: carePackage,
    notFound: t('carePackages.notFound'),
  });
  if (pending || !carePackage.data) return pending;
  const data = carePackage.data;
  return (
    <Screen
      title={data.name}
      actions={
        <Can permission="CarePackages_DELETE">
          <ConfirmButton
            label={t('common.delete')}
            title={t('carePackages.deleteTitle')}
            message={t('carePackages.deleteMessage', { name: data.name })}
            confirmLabel={t('common.delete')}
            onConfirm={() => remove.mutateAsync()}
          />
        </Can>
      }
    >
      <CarePackageForm key={data.updatedAt} carePackage={data} />
    </Screen>
  );
}

/** The API's ceiling for a care package's price, in whole NPR (care-packages.schemas.ts). */
const MAX_PRICE = 1_000_000_000;

function CarePackageForm({ carePackage }: { carePackage?: CarePackage }) {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const categories = useCategoryChoices();
  const brands = useBrandChoices();
  const editable = carePackage ? can('CarePackages_UPDATE') : can('CarePackages_CREATE');

  const [name, setName] = useState(carePackage?.name ?? '');
  const [description, setDescription] = useState(carePackage?.description ?? '');
  const [isActive, setIsActive] = useState(carePackage?.isActive ?? true);
  const rules = carePackage?.rules;
  const [categoryIds, setCategoryIds] = useState<string[]>(rules?.categoryIds.map(String) ?? []);
  const [brandIds, setBrandIds] = useState<string[]>(rules?.brandIds.map(String) ?? []);
  const [productIds, setProductIds] = useState<string[]>(rules?.productIds.map(String) ?? []);
  const [minPrice, setMinPrice] = useState(wholeNumberText(rules?.minPrice));
  const [maxPrice, setMaxPrice] = useState(wholeNumberText(rules?.maxPrice));
  const [tiers, setTiers] = useState<TierDraft[]>(
    carePackage?.tiers.map((tier) => ({
      ...tier,
      durationMonths: wholeNumberText(tier.durationMonths),
      price: wholeNumberText(tier.price),
    })) ?? [{ label: '', durationMonths: '12', price: '', isActive: true }],
  );

  const errors = useCatalogFormErrors({
    name: t('fields.name'),
    description: t('fields.description'),
    isActive: t('carePackages.offered'),
    'rules.categoryIds': t('carePackages.ruleCategories'),
    'rules.brandIds': t('carePackages.ruleBrands'),
    'rules.productIds': t('carePackages.ruleProducts'),
    'rules.minPrice': t('carePackages.minPrice'),
    'rules.maxPrice': t('carePackages.maxPrice'),
    tiers: t('carePackages.sections.tiers'),
    ...Object.fromEntries(
      tiers.flatMap((_, index) => [
        [`tiers.${index}.label`, t('carePackages.tierLabel', { number: index + 1 })],
        [`tiers.${index}.durationMonths`, t('carePackages.tierMonths', { number: index + 1 })],
        [`tiers.${index}.price`, t('carePackages.tierPrice', { number: index + 1 })],
      ]),
    ),
  });
  /** The API's rules (care-packages.schemas.ts), checked before sending. */
  const browserCheck = () =>
    errors.check({
      name: fieldRules.text(name, { required: true, maximum: 200 }),
      'rules.minPrice': fieldRules.whole(minPrice, { minimum: 0, maximum: MAX_PRICE }),
      'rules.maxPrice':
        fieldRules.whole(maxPrice, { minimum: 0, maximum: MAX_PRICE }) ??
        fieldRules.notAbove(minPrice, maxPrice, 'min_above_max'),
      ...Object.fromEntries(
        tiers.flatMap((tier, index) => [
          [`tiers.${index}.label`, fieldRules.text(tier.label, { required: true, maximum: 100 })],
          [
            `tiers.${index}.durationMonths`,
            fieldRules.whole(tier.durationMonths, { required: true, minimum: 1, maximum: 120 }),
          ],
          [
            `tiers.${index}.price`,
            fieldRules.whole(tier.price, { required: true, minimum: 0, maximum: MAX_PRICE }),
          ],
        ]),
      ),
    });

  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        description: description.trim() || null,
        isActive,
        rules: {
          categoryIds: categoryIds.map(Number),
          brandIds: brandIds.map(Number),
          productIds: productIds.map(Number),
          minPrice: numberOf(minPrice) ?? null,
          maxPrice: numberOf(maxPrice) ?? null,
        },
        tiers: tiers.map((tier) => ({
          ...(tier.id !== undefined ? { id: tier.id } : {}),
          label: tier.label.trim(),
          durationMonths: numberOf(tier.durationMonths) as number,
          price: numberOf(tier.price) as number,
          isActive: tier.isActive,
        })),
      };
      return carePackage
        ? client.patch('/api/admin/care-packages/{id}', { params: { path: { id: carePackage.id } }, body })
        : client.post('/api/admin/care-packages', { body });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['catalog', 'care-package', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'care-packages'] });
      if (!carePackage) void navigate({ to: `/catalog/care-packages/${saved.id}` });
    },
    onError: errors.show,
    meta: {
      action: carePackage
        ? t('actions.saveCarePackage', { name: carePackage.name })
        : t('actions.createCarePackage'),
    },
  });
  const changeTier = (index: number, change: Partial<TierDraft>) =>
    setTiers((current) => current.map((tier, i) => (i === index ? { ...tier, ...change } : tier)));

  return (
    <form
      onSubmit={handleSubmit(() => {
        if (browserCheck()) save.mutate();
      })}
      noValidate
      aria-label={t('carePackages.formLabel')}
    >
      <Stack gap="md">
        <FormError message={errors.message} />
        <Fieldset legend={t('carePackages.sections.about')} disabled={!editable}>
          <Stack gap="sm">
            <TextInput label={t('fields.name')} withAsterisk {...textField(errors, 'name', name, setName)} />
            <Textarea
              label={t('fields.description')}
              autosize
              minRows={2}
              {...textField(errors, 'description', description, setDescription)}
            />
            <Switch
              label={t('carePackages.offered')}
              checked={isActive}
              onChange={(event) => setIsActive(event.currentTarget.checked)}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend={t('carePackages.sections.tiers')} disabled={!editable}>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('carePackages.tiersHint')}
            </Text>
            {tiers.map((tier, index) => (
              <Paper key={tier.id ?? `new-${index}`} withBorder p="xs">
                <Group align="flex-start" wrap="wrap">
                  <TextInput
                    label={t('carePackages.tierLabel', { number: index + 1 })}
                    value={tier.label}
                    onChange={(event) => {
                      changeTier(index, { label: event.currentTarget.value });
                      errors.clear(`tiers.${index}.label`);
                    }}
                    error={errors.of(`tiers.${index}.label`)}
                    style={{ flex: 2, minWidth: 160 }}
                  />
                  <WholeNumberInput
                    label={t('carePackages.tierMonths', { number: index + 1 })}
                    value={tier.durationMonths}
                    onChange={(value) => {
                      changeTier(index, { durationMonths: value });
                      errors.clear(`tiers.${index}.durationMonths`);
                    }}
                    error={errors.of(`tiers.${index}.durationMonths`)}
                    style={{ flex: 1, minWidth: 120 }}
                  />
                  <MoneyInput
                    label={t('carePackages.tierPrice', { number: index + 1 })}
                    value={tier.price}
                    onChange={(value) => {
                      changeTier(index, { price: value });
                      errors.clear(`tiers.${index}.price`);
                    }}
                    error={errors.of(`tiers.${index}.price`)}
                    style={{ flex: 1, minWidth: 140 }}
                  />
                  <Switch
                    mt={30}
                    label={t('carePackages.tierActive', { number: index + 1 })}
                    checked={tier.isActive}
                    onChange={(event) => changeTier(index, { isActive: event.currentTarget.checked })}
                  />
                  <ActionIcon
                    mt={28}
                    color="red"
                    variant="subtle"
                    aria-label={t('carePackages.removeTier', { number: index + 1 })}
                    onClick={() => setTiers((current) => current.filter((_, i) => i !== index))}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
            {errors.of('tiers') && (
              <Text size="sm" c="red.8">
                {errors.of('tiers')}
              </Text>
            )}
            <Group>
              <Button
                size="xs"
                variant="default"
                onClick={() =>
                  setTiers((current) => [
                    ...current,
                    { label: '', durationMonths: '12', price: '', isActive: true },
                  ])
                }
              >
                {t('carePackages.addTier')}
              </Button>
            </Group>
          </Stack>
        </Fieldset>

        <Fieldset legend={t('carePackages.sections.rules')} disabled={!editable}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('carePackages.rulesHint')}
            </Text>
            <MultiSelect
              label={t('carePackages.ruleCategories')}
              searchable
              clearable
              {...valueField(errors, 'rules.categoryIds', categoryIds, setCategoryIds)}
              data={withSelected(categories.data, categoryIds)}
            />
            <MultiSelect
              label={t('carePackages.ruleBrands')}
              searchable
              clearable
              {...valueField(errors, 'rules.brandIds', brandIds, setBrandIds)}
              data={withSelected(brands.data, brandIds)}
            />
            {can('Products_READ') ? (
              <ProductPicker {...valueField(errors, 'rules.productIds', productIds, setProductIds)} />
            ) : (
              productIds.length > 0 && (
                <Text size="sm">{t('carePackages.rulesProducts', { count: productIds.length })}</Text>
              )
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <MoneyInput
                label={t('carePackages.minPrice')}
                {...valueField(errors, 'rules.minPrice', minPrice, setMinPrice)}
              />
              <MoneyInput
                label={t('carePackages.maxPrice')}
                {...valueField(errors, 'rules.maxPrice', maxPrice, setMaxPrice)}
              />
            </SimpleGrid>
          </Stack>
        </Fieldset>

        {editable && (
          <SaveRow
            saved={save.isSuccess && carePackage ? t('carePackages.saved') : null}
            busy={save.isPending}
            label={carePackage ? t('common.save') : t('common.create')}
          />
        )}
      </Stack>
    </form>
  );
}

/** Choices plus any selected id the list lacks (an inactive brand without Brands_READ). */
function withSelected(choices: Choice[] | undefined, selected: string[]): Choice[] {
  const list = choices ?? [];
  const missing = selected.filter((id) => !list.some((choice) => choice.value === id));
  return [...list, ...missing.map((id) => ({ value: id, label: `#${id}` }))];
}

/** Products by name, searched on the server as staff type (the catalog can be large). */
function ProductPicker(props: { value: string[]; onChange(value: string[]): void; error?: string }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const results = useQuery({
    queryKey: ['catalog', 'products', 'pick', debounced],
    queryFn: () =>
      client.get('/api/admin/products', {
        params: { query: { search: debounced || undefined, size: 20, productKind: 'physical' } },
      }),
    meta: { action: t('actions.loadProducts') },
  });
  // The chosen products' names, from the same cache the product screen uses.
  const chosen = useQueries({
    queries: props.value.map((id) => ({
      queryKey: ['catalog', 'product', Number(id)],
      queryFn: () => client.get('/api/admin/products/{id}', { params: { path: { id: Number(id) } } }),
      staleTime: 60_000,
    })),
  });
  const labels = new Map<string, string>();
  for (const product of results.data ?? []) labels.set(String(product.id), product.title);
  for (const query of chosen) if (query.data) labels.set(String(query.data.id), query.data.title);
  const ids = [...new Set([...props.value, ...(results.data ?? []).map((product) => String(product.id))])];
  return (
    <MultiSelect
      label={t('carePackages.ruleProducts')}
      description={t('carePackages.ruleProductsHint')}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already searched (with typos allowed); the list shows what it found.
      filter={({ options }) => options}
      value={props.value}
      onChange={props.onChange}
      data={ids.map((id) => ({ value: id, label: labels.get(id) ?? `#${id}` }))}
      error={props.error}
      nothingFoundMessage={t('carePackages.noProductFound')}
    />
  );
}
