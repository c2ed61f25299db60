// The product's own fields, for a new product or an existing one. The API checks every value;
// its validation details appear under the inputs they name.
import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Image,
  Loader,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../components/Formatted';
import { FormError } from '../../components/StatePanels';
import { isRefused } from '../../lib/api-errors';
import { fieldRules, textField, valueField } from '../../lib/form-errors';
import { formatMoney } from '../../lib/format';
import { wholeNumberText } from '../../lib/whole-number';
import { useSession } from '../../session/session';
import {
  type Choice,
  idOf,
  PRODUCT_KINDS,
  type Product,
  type ProductKind,
  uploadFiles,
  useBrandChoices,
  useCategoryChoices,
  useTagChoices,
} from './catalog-api';
import { changedSlug, handleSubmit, useCatalogFormErrors } from './catalog-forms';
import { FilePicker, MoneyInput, numberOf, useDescribeCatalogError } from './catalog-ui';

interface ImageDraft {
  relativePath: string;
  alt: string;
  url: string;
}
interface SpecificationDraft {
  key: string;
  value: string;
}

const MAX_IMAGES = 20;

/** The API's ceiling for a price, in whole NPR (products.schemas.ts). */
const MAX_MONEY = 1_000_000_000_000;

export function ProductForm({ product }: { product?: Product }) {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const describe = useDescribeCatalogError();
  const categories = useCategoryChoices();
  const brands = useBrandChoices();
  const tags = useTagChoices();
  const editable = product ? can('Products_UPDATE') : can('Products_CREATE');

  const [title, setTitle] = useState(product?.title ?? '');
  const [slug, setSlug] = useState(product?.slug ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [kind, setKind] = useState<ProductKind>(product?.productKind ?? 'physical');
  const [mrp, setMrp] = useState(wholeNumberText(product?.mrp));
  const [sp, setSp] = useState(wholeNumberText(product?.sp));
  const [categoryId, setCategoryId] = useState<string | null>(
    product?.categoryId ? String(product.categoryId) : null,
  );
  const [brandId, setBrandId] = useState<string | null>(product?.brandId ? String(product.brandId) : null);
  const [tagIds, setTagIds] = useState<string[]>(product?.tagIds.map(String) ?? []);
  const [isSellable, setIsSellable] = useState(product?.isSellable ?? true);
  const [tierId, setTierId] = useState<string | null>(
    product?.carePackageTierId ? String(product.carePackageTierId) : null,
  );
  const [images, setImages] = useState<ImageDraft[]>(product?.images ?? []);
  const [specifications, setSpecifications] = useState<SpecificationDraft[]>(product?.specifications ?? []);
  const [publishNow, setPublishNow] = useState(false);

  // Each field's label, which its messages name ("MRP must be at least 0.").
  const errors = useCatalogFormErrors({
    title: t('product.name'),
    slug: t('product.slug'),
    description: t('product.description'),
    productKind: t('product.kind'),
    mrp: t('product.mrp'),
    sp: t('product.sp'),
    categoryId: t('product.category'),
    brandId: t('product.brand'),
    tagIds: t('product.tags'),
    carePackageTierId: t('product.careTier'),
    images: t('product.sections.images'),
    ...Object.fromEntries(
      images.flatMap((_, index) => [
        [`images.${index}.relativePath`, t('product.sections.images')],
        [`images.${index}.alt`, t('product.altText', { number: index + 1 })],
      ]),
    ),
    specifications: t('product.sections.specifications'),
    ...Object.fromEntries(
      specifications.flatMap((_, index) => [
        [`specifications.${index}.key`, t('product.specKey', { number: index + 1 })],
        [`specifications.${index}.value`, t('product.specValue', { number: index + 1 })],
      ]),
    ),
  });

  /** The API's rules for a product write, checked before it is sent (products.schemas.ts). */
  const browserCheck = () =>
    errors.check({
      title: fieldRules.text(title, { required: true, maximum: 255 }),
      mrp: fieldRules.whole(mrp, { required: true, minimum: 0, maximum: MAX_MONEY }),
      sp:
        fieldRules.whole(sp, { minimum: 0, maximum: MAX_MONEY }) ??
        fieldRules.notAbove(sp, mrp, 'sp_above_mrp'),
      ...Object.fromEntries(
        specifications.map((spec, index) => [
          `specifications.${index}.key`,
          fieldRules.text(spec.key, { required: true, maximum: 100 }),
        ]),
      ),
    });

  const upload = useMutation({
    mutationFn: (files: File[]) => uploadFiles(client, files, 'image'),
    onSuccess: (stored) =>
      setImages((current) => [
        ...current,
        ...stored.map((file) => ({ relativePath: file.relativePath, alt: '', url: file.url })),
      ]),
    meta: { action: t('actions.uploadImages') },
  });

  const save = useMutation({
    mutationFn: async () => {
      const body = {
        title: title.trim(),
        description,
        productKind: kind,
        mrp: numberOf(mrp) as number,
        sp: numberOf(sp) ?? 0,
        categoryId: idOf(categoryId) ?? null,
        brandId: idOf(brandId) ?? null,
        isSellable,
        images: images.map(({ relativePath, alt }) => ({ relativePath, alt })),
        specifications,
        carePackageTierId: kind === 'care_package' ? (idOf(tierId) ?? null) : null,
        // Without Tags_READ the tags cannot be shown, so they are left as they are.
        ...(can('Tags_READ') ? { tagIds: tagIds.map(Number) } : {}),
        ...changedSlug(slug, product?.slug),
      };
      if (product) {
        return client.patch('/api/admin/products/{id}', { params: { path: { id: product.id } }, body });
      }
      return client.post('/api/admin/products', {
        body: { ...body, status: publishNow ? 'published' : 'draft' },
      });
    },
    onSuccess: (saved) => {
      errors.clear();
      queryClient.setQueryData(['catalog', 'product', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'products'] });
      if (!product) void navigate({ to: `/catalog/products/${saved.id}` });
    },
    onError: errors.show,
    meta: {
      action: product ? t('actions.saveProduct', { title: product.title }) : t('actions.createProduct'),
    },
  });

  const move = (from: number, to: number) =>
    setImages((current) => {
      const next = [...current];
      const [image] = next.splice(from, 1);
      if (image) next.splice(to, 0, image);
      return next;
    });

  return (
    <form
      onSubmit={handleSubmit(() => {
        if (browserCheck()) save.mutate();
      })}
      noValidate
      aria-label={t('product.formLabel')}
    >
      <Stack gap="md">
        <FormError message={errors.message} />
        <Fieldset legend={t('product.sections.basics')} disabled={!editable}>
          <Stack gap="sm">
            <TextInput
              label={t('product.name')}
              withAsterisk
              {...textField(errors, 'title', title, setTitle)}
            />
            <TextInput
              label={t('product.slug')}
              description={t('product.slugHint')}
              {...textField(errors, 'slug', slug, setSlug)}
              error={
                errors.of('slug') ?? (errors.code === 'PRODUCT_SLUG_EXISTS' ? errors.message : undefined)
              }
            />
            <Select
              label={t('product.kind')}
              value={kind}
              allowDeselect={false}
              onChange={(value) => {
                if (value) setKind(value as ProductKind);
                errors.clear('productKind');
              }}
              data={PRODUCT_KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))}
              error={errors.of('productKind')}
            />
            {kind === 'care_package' && (
              <CareTierSelect {...valueField(errors, 'carePackageTierId', tierId, setTierId)} />
            )}
            <Textarea
              label={t('product.description')}
              description={t('product.descriptionHint')}
              autosize
              minRows={4}
              maxRows={16}
              {...textField(errors, 'description', description, setDescription)}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend={t('product.sections.prices')} disabled={!editable}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MoneyInput
              label={t('product.mrp')}
              description={t('product.mrpHint')}
              withAsterisk
              {...valueField(errors, 'mrp', mrp, setMrp)}
            />
            <MoneyInput
              label={t('product.sp')}
              description={t('product.spHint')}
              {...valueField(errors, 'sp', sp, setSp)}
            />
          </SimpleGrid>
          <Switch
            mt="md"
            label={t('product.sellable')}
            description={t('product.sellableHint')}
            checked={isSellable}
            onChange={(event) => setIsSellable(event.currentTarget.checked)}
          />
        </Fieldset>

        <Fieldset legend={t('product.sections.organise')} disabled={!editable}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('product.category')}
              placeholder={t('product.none')}
              searchable
              clearable
              {...valueField(errors, 'categoryId', categoryId, setCategoryId)}
              data={withCurrent(categories.data, categoryId, t('product.unknownChoice'))}
              rightSection={categories.isPending ? <Loader size="xs" /> : undefined}
            />
            <Select
              label={t('product.brand')}
              placeholder={t('product.none')}
              searchable
              clearable
              {...valueField(errors, 'brandId', brandId, setBrandId)}
              data={withCurrent(brands.data, brandId, t('product.unknownChoice'))}
            />
          </SimpleGrid>
          {can('Tags_READ') && (
            <MultiSelect
              mt="sm"
              label={t('product.tags')}
              searchable
              clearable
              {...valueField(errors, 'tagIds', tagIds, setTagIds)}
              data={tags.data ?? []}
            />
          )}
        </Fieldset>

        <Fieldset legend={t('product.sections.images')} disabled={!editable}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('product.imagesHint')}
            </Text>
            {images.length === 0 && <Text size="sm">{t('product.noImages')}</Text>}
            {images.map((image, index) => (
              <Paper key={image.relativePath} withBorder p="xs">
                <Group align="flex-start" wrap="nowrap">
                  <Image
                    src={image.url}
                    alt={
                      image.alt ||
                      t('product.imageAlt', { number: index + 1, title: title || t('product.title') })
                    }
                    w={96}
                    h={96}
                    fit="cover"
                    radius="sm"
                  />
                  <Stack gap={6} style={{ flex: 1 }}>
                    <TextInput
                      label={t('product.altText', { number: index + 1 })}
                      description={index === 0 ? t('product.firstImage') : undefined}
                      value={image.alt}
                      onChange={(event) => {
                        const alt = event.currentTarget.value;
                        setImages((current) =>
                          current.map((item, i) => (i === index ? { ...item, alt } : item)),
                        );
                        errors.clear(`images.${index}.alt`);
                      }}
                      error={errors.of(`images.${index}.alt`) ?? errors.of(`images.${index}.relativePath`)}
                    />
                    <Group gap="xs">
                      <Button
                        size="xs"
                        variant="default"
                        disabled={index === 0}
                        onClick={() => move(index, index - 1)}
                        aria-label={t('product.moveImageEarlier', { number: index + 1 })}
                      >
                        {t('product.moveEarlier')}
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        onClick={() => setImages((current) => current.filter((_, i) => i !== index))}
                        aria-label={t('product.removeImage', { number: index + 1 })}
                      >
                        {t('product.remove')}
                      </Button>
                    </Group>
                  </Stack>
                </Group>
              </Paper>
            ))}
            {can('Uploads_CREATE') && (
              <Group align="flex-end">
                <FilePicker
                  label={t('product.addImages')}
                  description={t('product.addImagesHint')}
                  accept="image/jpeg,image/png,image/webp,image/gif,image/avif,image/heic"
                  multiple
                  disabled={!editable || upload.isPending || images.length >= MAX_IMAGES}
                  error={
                    errors.of('images') ??
                    (upload.isError && !isRefused(upload.error) ? describe(upload.error) : undefined)
                  }
                  onFiles={(files) => upload.mutate(files.slice(0, MAX_IMAGES - images.length))}
                />
                {upload.isPending && (
                  <Group gap={6} role="status">
                    <Loader size="xs" aria-hidden />
                    <Text size="sm">{t('product.uploading')}</Text>
                  </Group>
                )}
              </Group>
            )}
          </Stack>
        </Fieldset>

        <Fieldset legend={t('product.sections.specifications')} disabled={!editable}>
          <Stack gap="xs">
            {specifications.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own; the index is their place in the list the API stores
              <Group key={index} align="flex-start" wrap="nowrap">
                <TextInput
                  label={t('product.specKey', { number: index + 1 })}
                  value={row.key}
                  onChange={(event) => {
                    const key = event.currentTarget.value;
                    setSpecifications((current) =>
                      current.map((item, i) => (i === index ? { ...item, key } : item)),
                    );
                    errors.clear(`specifications.${index}.key`);
                  }}
                  error={errors.of(`specifications.${index}.key`)}
                  style={{ flex: 1 }}
                />
                <TextInput
                  label={t('product.specValue', { number: index + 1 })}
                  value={row.value}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setSpecifications((current) =>
                      current.map((item, i) => (i === index ? { ...item, value } : item)),
                    );
                    errors.clear(`specifications.${index}.value`);
                  }}
                  error={errors.of(`specifications.${index}.value`)}
                  style={{ flex: 2 }}
                />
                <ActionIcon
                  mt={26}
                  color="red"
                  variant="subtle"
                  aria-label={t('product.removeSpec', { number: index + 1 })}
                  onClick={() => setSpecifications((current) => current.filter((_, i) => i !== index))}
                >
                  ×
                </ActionIcon>
              </Group>
            ))}
            <Group>
              <Button
                size="xs"
                variant="default"
                onClick={() => setSpecifications((current) => [...current, { key: '', value: '' }])}
              >
                {t('product.addSpec')}
              </Button>
            </Group>
            {errors.of('specifications') && (
              <Text size="sm" c="red.8">
                {errors.of('specifications')}
              </Text>
            )}
          </Stack>
        </Fieldset>

        {editable && (
          <Group justify="space-between">
            {!product ? (
              <Checkbox
                label={t('product.publishNow')}
                checked={publishNow}
                onChange={(event) => setPublishNow(event.currentTarget.checked)}
              />
            ) : (
              <span />
            )}
            <Button type="submit" loading={save.isPending} disabled={upload.isPending}>
              {product ? t('product.save') : t('product.create')}
            </Button>
          </Group>
        )}
        {save.isSuccess && product && (
          <Text role="status" size="sm" c="teal.9">
            {t('product.saved')}
          </Text>
        )}
      </Stack>
    </form>
  );
}

/** The choices, plus the current value when the list does not hold it (inactive, no permission). */
function withCurrent(choices: Choice[] | undefined, current: string | null, unknown: string): Choice[] {
  const list = choices ?? [];
  if (!current || list.some((choice) => choice.value === current)) return list;
  return [...list, { value: current, label: `${unknown} #${current}` }];
}

/** The care-package tier a `care_package` product sells, picked from the packages' tiers. */
function CareTierSelect(props: {
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
}) {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const language = useLanguage();
  const packages = useQuery({
    queryKey: ['catalog', 'care-packages', 'choices'],
    queryFn: () =>
      client.get('/api/admin/care-packages', { params: { query: { pagination: 'false', sort: 'name' } } }),
    enabled: can('CarePackages_READ'),
    meta: { action: t('actions.loadCarePackages') },
  });
  const choices = (packages.data ?? []).map((carePackage) => ({
    group: carePackage.name,
    items: carePackage.tiers.map((tier) => ({
      value: String(tier.id),
      label: `${carePackage.name}: ${tier.label} (${t('carePackages.months', { count: tier.durationMonths })}, ${formatMoney(tier.price, language)})`,
      disabled: !tier.isActive,
    })),
  }));
  return (
    <Select
      label={t('product.careTier')}
      description={t('product.careTierHint')}
      withAsterisk
      searchable
      value={props.value}
      onChange={props.onChange}
      data={choices}
      error={props.error}
    />
  );
}
