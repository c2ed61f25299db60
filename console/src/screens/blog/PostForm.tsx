// A blog post's form, to create one (`/blog/posts/new`) or change it: title, category, excerpt,
// cover image (uploaded or an address) with its alt text, hero intro, display date in the store's
// time zone, the body (BodyField: rich text or HTML, with what a save keeps), linked products in
// their order, FAQs (added, removed, reordered) and a call-to-action or none. Videos are kept as
// they are (each needs an SEO record of its own; the API's rules are in docs/api-notes.md).
import {
  Button,
  Fieldset,
  Group,
  Image,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProductsPicker } from '../../components/ProductPicker';
import { FormError } from '../../components/StatePanels';
import { StoreDateTimeInput } from '../../components/StoreDateTimeInput';
import { fieldRules, textField, valueField } from '../../lib/form-errors';
import { useSession } from '../../session/session';
import { idOf } from '../catalog/catalog-api';
import { handleSubmit, ImageUploadPicker, SaveRow, useCatalogFormErrors } from '../catalog/catalog-forms';
import { BodyField } from './BodyField';
import { type BlogPost, useBlogCategoryChoices } from './blog-api';

interface Faq {
  question: string;
  answer: string;
}
type Cta = { ctaTitle: string; ctaButtonLabel: string; ctaButtonLink: string };
const NO_CTA: Cta = { ctaTitle: '', ctaButtonLabel: '', ctaButtonLink: '' };

/** `list` with the item at `from` moved to `to`. */
function moved<Item>(list: readonly Item[], from: number, to: number): Item[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

export function PostForm({ post }: { post?: BlogPost }) {
  const { t } = useTranslation('blog');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const categories = useBlogCategoryChoices();
  const editable = post ? can('Blog_UPDATE') : can('Blog_CREATE');
  const [title, setTitle] = useState(post?.title ?? '');
  const [categoryId, setCategoryId] = useState<string | null>(
    post?.categoryId ? String(post.categoryId) : null,
  );
  const [excerpt, setExcerpt] = useState(post?.excerpt ?? '');
  const [heroIntro, setHeroIntro] = useState(post?.heroIntro ?? '');
  const [imageUrl, setImageUrl] = useState(post?.featuredImageUrl ?? '');
  const [imageAlt, setImageAlt] = useState(post?.featuredImageAlt ?? '');
  const [displayDate, setDisplayDate] = useState<string | null>(post?.displayDate ?? null);
  const [body, setBody] = useState(post?.body ?? '');
  const [productIds, setProductIds] = useState<number[]>(post?.productIds ?? []);
  const [faqs, setFaqs] = useState<Faq[]>(
    (post?.faqs ?? []).map(({ question, answer }) => ({ question, answer })),
  );
  const [withCta, setWithCta] = useState(Boolean(post?.cta));
  const [cta, setCta] = useState<Cta>(post?.cta ?? NO_CTA);

  const errors = useCatalogFormErrors(
    {
      title: t('fields.title'),
      categoryId: t('fields.category'),
      excerpt: t('fields.excerpt'),
      heroIntro: t('fields.heroIntro'),
      featuredImageUrl: t('fields.imageUrl'),
      featuredImageAlt: t('fields.imageAlt'),
      displayDate: t('fields.displayDate'),
      body: t('fields.body'),
      productIds: t('fields.products'),
      faqs: t('sections.faqs'),
      ...Object.fromEntries(
        faqs.flatMap((_, index) => [
          [`faqs.${index}.question`, t('faq.question', { number: index + 1 })],
          [`faqs.${index}.answer`, t('faq.answer', { number: index + 1 })],
        ]),
      ),
      'cta.ctaTitle': t('cta.title'),
      'cta.ctaButtonLabel': t('cta.buttonLabel'),
      'cta.ctaButtonLink': t('cta.buttonLink'),
    },
    'blog',
  );

  /** The API's rules for a post write, checked before it is sent (posts.schemas.ts). */
  const browserCheck = () =>
    errors.check({
      title: fieldRules.text(title, { required: true, maximum: 255 }),
      excerpt: fieldRules.text(excerpt, { maximum: 1000 }),
      featuredImageAlt: fieldRules.text(imageAlt, { maximum: 255 }),
      ...Object.fromEntries(
        faqs.flatMap((faq, index) => [
          [`faqs.${index}.question`, fieldRules.text(faq.question, { required: true, maximum: 500 })],
          [`faqs.${index}.answer`, fieldRules.text(faq.answer, { required: true, maximum: 5000 })],
        ]),
      ),
      ...(withCta
        ? {
            'cta.ctaTitle': fieldRules.text(cta.ctaTitle, { required: true, maximum: 255 }),
            'cta.ctaButtonLabel': fieldRules.text(cta.ctaButtonLabel, { required: true, maximum: 100 }),
            'cta.ctaButtonLink': fieldRules.text(cta.ctaButtonLink, { required: true }),
          }
        : {}),
    });

  const save = useMutation({
    mutationFn: () => {
      const fields = {
        title: title.trim(),
        categoryId: idOf(categoryId) ?? null,
        excerpt: excerpt.trim() || null,
        heroIntro: heroIntro.trim() || null,
        featuredImageUrl: imageUrl.trim() || null,
        featuredImageAlt: imageAlt.trim() || null,
        displayDate,
        body,
        productIds,
        faqs: faqs.map((faq, position) => ({
          question: faq.question.trim(),
          answer: faq.answer.trim(),
          position,
        })),
        cta: withCta
          ? {
              ctaTitle: cta.ctaTitle.trim(),
              ctaButtonLabel: cta.ctaButtonLabel.trim(),
              ctaButtonLink: cta.ctaButtonLink.trim(),
              position: 0,
            }
          : null,
      };
      return post
        ? client.put('/api/admin/blog/posts/{id}', { params: { path: { id: post.id } }, body: fields })
        : client.post('/api/admin/blog/posts', { body: fields });
    },
    onSuccess: (saved) => {
      errors.clear();
      queryClient.setQueryData(['blog', 'post', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: ['blog', 'posts'] });
      void queryClient.invalidateQueries({ queryKey: ['blog', 'categories'] });
      if (!post) void navigate({ to: `/blog/posts/${saved.id}` });
    },
    onError: errors.show,
    meta: { action: post ? t('actions.savePost', { title: post.title }) : t('actions.createPost') },
  });

  const setFaq = (index: number, change: Partial<Faq>) =>
    setFaqs((current) => current.map((faq, i) => (i === index ? { ...faq, ...change } : faq)));

  return (
    <form
      onSubmit={handleSubmit(() => {
        if (browserCheck()) save.mutate();
      })}
      noValidate
      aria-label={t('post.formLabel')}
    >
      <Stack gap="md">
        <FormError message={errors.message} />
        <Fieldset legend={t('sections.basics')} disabled={!editable}>
          <Stack gap="sm">
            <TextInput
              label={t('fields.title')}
              withAsterisk
              description={post ? t('post.slugShown', { slug: post.slug }) : t('post.slugHint')}
              {...textField(errors, 'title', title, setTitle)}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('fields.category')}
                placeholder={t('post.noCategory')}
                searchable
                clearable
                {...valueField(errors, 'categoryId', categoryId, setCategoryId)}
                error={
                  errors.of('categoryId') ??
                  (errors.code === 'BLOG_CATEGORY_NOT_FOUND' ? (errors.message ?? undefined) : undefined)
                }
                data={categories.data ?? []}
              />
              <StoreDateTimeInput
                label={t('fields.displayDate')}
                zoneNote={t('post.zoneNote')}
                value={displayDate}
                onChange={(value) => {
                  setDisplayDate(value);
                  errors.clear('displayDate');
                }}
                error={errors.of('displayDate')}
              />
            </SimpleGrid>
            <Textarea
              label={t('fields.excerpt')}
              description={t('post.excerptHint')}
              autosize
              minRows={2}
              {...textField(errors, 'excerpt', excerpt, setExcerpt)}
            />
            <Textarea
              label={t('fields.heroIntro')}
              description={t('post.heroIntroHint')}
              autosize
              minRows={2}
              {...textField(errors, 'heroIntro', heroIntro, setHeroIntro)}
            />
            {post && (
              <Text size="sm">
                {t('fields.author')}: {post.authorName ?? t('post.noAuthor')}
              </Text>
            )}
          </Stack>
        </Fieldset>

        <Fieldset legend={t('sections.image')} disabled={!editable}>
          <Group align="flex-start" wrap="wrap">
            {imageUrl.trim() && (
              <Image src={imageUrl} alt={imageAlt || title} w={160} h={100} fit="cover" radius="sm" />
            )}
            <Stack gap="sm" style={{ flex: 1, minWidth: 240 }}>
              {editable && (
                <ImageUploadPicker label={t('post.uploadImage')} onUploaded={(url) => setImageUrl(url)} />
              )}
              <TextInput
                label={t('fields.imageUrl')}
                description={t('post.imageUrlHint')}
                {...textField(errors, 'featuredImageUrl', imageUrl, setImageUrl)}
              />
              <TextInput
                label={t('fields.imageAlt')}
                description={t('post.imageAltHint')}
                {...textField(errors, 'featuredImageAlt', imageAlt, setImageAlt)}
              />
            </Stack>
          </Group>
        </Fieldset>

        <Fieldset legend={t('sections.body')}>
          <BodyField
            value={body}
            onChange={(html) => {
              setBody(html);
              errors.clear('body');
            }}
            error={errors.of('body')}
            disabled={!editable}
          />
        </Fieldset>

        <Fieldset legend={t('sections.products')} disabled={!editable}>
          {/* The picker names products from the catalog: a role that may not read it sees how many. */}
          {can('Products_READ') ? (
            <ProductsPicker
              label={t('fields.products')}
              description={t('post.productsHint')}
              value={productIds}
              onChange={(ids) => {
                setProductIds(ids);
                errors.clear('productIds');
              }}
              action={t('actions.loadProducts')}
              nothingFound={t('post.noProductFound')}
              error={
                errors.of('productIds') ??
                (errors.code === 'PRODUCT_NOT_FOUND' ? (errors.message ?? undefined) : undefined)
              }
            />
          ) : (
            <Text size="sm">{t('post.productsLinked', { count: productIds.length })}</Text>
          )}
        </Fieldset>

        <Fieldset legend={t('sections.faqs')} disabled={!editable}>
          <Stack gap="sm">
            {faqs.length === 0 && <Text size="sm">{t('faq.none')}</Text>}
            {faqs.map((faq, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: FAQs have no id until saved; the index is their position
              <Paper key={index} withBorder p="sm">
                <Stack gap="xs">
                  <TextInput
                    label={t('faq.question', { number: index + 1 })}
                    withAsterisk
                    value={faq.question}
                    onChange={(event) => {
                      setFaq(index, { question: event.currentTarget.value });
                      errors.clear(`faqs.${index}.question`);
                    }}
                    error={errors.of(`faqs.${index}.question`)}
                  />
                  <Textarea
                    label={t('faq.answer', { number: index + 1 })}
                    withAsterisk
                    autosize
                    minRows={2}
                    value={faq.answer}
                    onChange={(event) => {
                      setFaq(index, { answer: event.currentTarget.value });
                      errors.clear(`faqs.${index}.answer`);
                    }}
                    error={errors.of(`faqs.${index}.answer`)}
                  />
                  {editable && (
                    <Group gap="xs">
                      <Button
                        size="xs"
                        variant="default"
                        disabled={index === 0}
                        onClick={() => setFaqs((current) => moved(current, index, index - 1))}
                        aria-label={t('faq.moveUpNamed', { number: index + 1 })}
                      >
                        {t('faq.moveUp')}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        disabled={index === faqs.length - 1}
                        onClick={() => setFaqs((current) => moved(current, index, index + 1))}
                        aria-label={t('faq.moveDownNamed', { number: index + 1 })}
                      >
                        {t('faq.moveDown')}
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        onClick={() => setFaqs((current) => current.filter((_, i) => i !== index))}
                        aria-label={t('faq.removeNamed', { number: index + 1 })}
                      >
                        {t('faq.remove')}
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Paper>
            ))}
            {editable && (
              <Group>
                <Button
                  variant="default"
                  onClick={() => setFaqs((current) => [...current, { question: '', answer: '' }])}
                >
                  {t('faq.add')}
                </Button>
              </Group>
            )}
          </Stack>
        </Fieldset>

        <Fieldset legend={t('sections.cta')} disabled={!editable}>
          <Stack gap="sm">
            <Switch
              label={t('cta.show')}
              description={t('cta.showHint')}
              checked={withCta}
              onChange={(event) => setWithCta(event.currentTarget.checked)}
            />
            {withCta && (
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput
                  label={t('cta.title')}
                  withAsterisk
                  {...textField(errors, 'cta.ctaTitle', cta.ctaTitle, (ctaTitle) =>
                    setCta((current) => ({ ...current, ctaTitle })),
                  )}
                />
                <TextInput
                  label={t('cta.buttonLabel')}
                  withAsterisk
                  {...textField(errors, 'cta.ctaButtonLabel', cta.ctaButtonLabel, (ctaButtonLabel) =>
                    setCta((current) => ({ ...current, ctaButtonLabel })),
                  )}
                />
                <TextInput
                  label={t('cta.buttonLink')}
                  description={t('cta.buttonLinkHint')}
                  withAsterisk
                  {...textField(errors, 'cta.ctaButtonLink', cta.ctaButtonLink, (ctaButtonLink) =>
                    setCta((current) => ({ ...current, ctaButtonLink })),
                  )}
                />
              </SimpleGrid>
            )}
          </Stack>
        </Fieldset>

        {post && post.videos.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('post.videosKept', { count: post.videos.length })}
          </Text>
        )}
        {editable && (
          <SaveRow
            saved={save.isSuccess ? t('post.saved') : null}
            busy={save.isPending}
            label={post ? t('post.save') : t('post.create')}
          />
        )}
      </Stack>
    </form>
  );
}
