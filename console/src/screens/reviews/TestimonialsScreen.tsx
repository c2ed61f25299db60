// Testimonials: what customers said, shown on the storefront smallest `order` first. Add, edit,
// hide, delete, and move up or down (which renumbers the rows of the page in their new order).
import {
  ActionIcon,
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { textField, valueField } from '../../lib/form-errors';
import { wholeNumberText } from '../../lib/whole-number';
import { Can, useSession } from '../../session/session';
import { FormDialog, useCatalogFormErrors, useRefreshingMutation } from '../catalog/catalog-forms';
import { numberOf, RowActions, useSearchText, useUrlFilters } from '../catalog/catalog-ui';
import { RATINGS, stars, type Testimonial } from './reviews-api';

export function TestimonialsScreen() {
  const { t } = useTranslation('reviews');
  const { client, can } = useSession();
  const { values, set } = useUrlFilters(['search', 'visible'] as const);
  const searchBox = useSearchText(values, set);
  const visible = values.visible === 'true' || values.visible === 'false' ? values.visible : undefined;
  const filters = { search: values.search, isVisible: visible };
  const list = usePagedList<Testimonial>({
    queryKey: ['reviews', 'testimonials', filters],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/reviews/testimonials', {
        params: {
          query: {
            page,
            size,
            sort: 'order',
            order: 'asc',
            ...(filters.search ? { search: filters.search } : {}),
            ...(visible ? { isVisible: visible } : {}),
          },
        },
      }),
    action: t('actions.loadTestimonials'),
  });
  const [editing, setEditing] = useState<Testimonial | 'new' | null>(null);
  const remove = useRefreshingMutation({
    mutationFn: (id: number) =>
      client.delete('/api/admin/reviews/testimonials/{id}', { params: { path: { id } } }),
    refreshes: ['reviews', 'testimonials'],
    action: t('actions.deleteTestimonial'),
  });
  const rows = list.query.data?.data ?? [];
  // Moving a row renumbers the page: each row's order becomes its place in the whole list.
  const move = useRefreshingMutation({
    mutationFn: async ({ index, by }: { index: number; by: -1 | 1 }) => {
      const next = [...rows];
      const [moved] = next.splice(index, 1);
      if (!moved) return;
      next.splice(index + by, 0, moved);
      const base = (list.page - 1) * list.size + 1;
      for (const [position, row] of next.entries()) {
        if (row.order !== base + position) {
          await client.patch('/api/admin/reviews/testimonials/{id}', {
            params: { path: { id: row.id } },
            body: { order: base + position },
          });
        }
      }
    },
    refreshes: ['reviews', 'testimonials'],
    action: t('actions.reorderTestimonials'),
  });
  const mayReorder = can('Reviews_UPDATE') && !filters.search && !visible;

  return (
    <Screen
      title={t('testimonials.title')}
      actions={
        <Can permission="Reviews_CREATE">
          <Button onClick={() => setEditing('new')}>{t('testimonials.new')}</Button>
        </Can>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput type="search" label={t('testimonials.search')} {...searchBox} />
        <NativeSelect
          label={t('testimonials.visibility')}
          value={visible ?? ''}
          onChange={(event) => set('visible', event.currentTarget.value)}
          data={[
            { value: '', label: t('filters.any') },
            { value: 'true', label: t('testimonials.shown') },
            { value: 'false', label: t('testimonials.hidden') },
          ]}
        />
      </SimpleGrid>
      <PagedTable
        list={list}
        caption={t('testimonials.caption')}
        emptyMessage={filters.search || visible ? t('testimonials.noMatch') : t('testimonials.none')}
        rowKey={(row) => row.id}
        columns={[
          {
            key: 'order',
            header: t('testimonials.order'),
            align: 'right',
            cell: (row) => row.order,
          },
          { key: 'name', header: t('testimonials.name'), cell: (row) => <Text fw={600}>{row.name}</Text> },
          {
            key: 'rating',
            header: t('testimonials.rating'),
            cell: (row) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                <span aria-hidden>{stars(row.rating)}</span> {t('rating.outOf', { rating: row.rating })}
              </Text>
            ),
          },
          {
            key: 'comment',
            header: t('testimonials.comment'),
            cell: (row) => (
              <Text size="sm" lineClamp={3} maw={360}>
                {row.comment}
              </Text>
            ),
          },
          {
            key: 'visible',
            header: t('testimonials.visibility'),
            cell: (row) => (
              <StateBadge color={row.isVisible ? 'teal' : 'gray'}>
                {row.isVisible ? t('testimonials.shown') : t('testimonials.hidden')}
              </StateBadge>
            ),
          },
          {
            key: 'actions',
            header: t('testimonials.actions'),
            cell: (row) => {
              const index = rows.indexOf(row);
              return (
                <Group gap="xs" wrap="nowrap">
                  {mayReorder && (
                    <>
                      <ActionIcon
                        variant="default"
                        disabled={index <= 0 || move.isPending}
                        onClick={() => move.mutate({ index, by: -1 })}
                        aria-label={t('testimonials.moveUp', { name: row.name })}
                      >
                        ↑
                      </ActionIcon>
                      <ActionIcon
                        variant="default"
                        disabled={index >= rows.length - 1 || move.isPending}
                        onClick={() => move.mutate({ index, by: 1 })}
                        aria-label={t('testimonials.moveDown', { name: row.name })}
                      >
                        ↓
                      </ActionIcon>
                    </>
                  )}
                  <RowActions
                    name={row.name}
                    editPermission="Reviews_UPDATE"
                    onEdit={() => setEditing(row)}
                    deletePermission="Reviews_DELETE"
                    deleteTitle={t('testimonials.deleteTitle')}
                    deleteMessage={t('testimonials.deleteMessage', { name: row.name })}
                    onDelete={() => remove.mutateAsync(row.id)}
                  />
                </Group>
              );
            },
          },
        ]}
      />
      {editing && (
        <TestimonialDialog
          testimonial={editing === 'new' ? null : editing}
          nextOrder={Math.max(0, ...rows.map((row) => row.order)) + 1}
          onClose={() => setEditing(null)}
        />
      )}
    </Screen>
  );
}

function TestimonialDialog({
  testimonial,
  nextOrder,
  onClose,
}: {
  testimonial: Testimonial | null;
  nextOrder: number;
  onClose(): void;
}) {
  const { t } = useTranslation('reviews');
  const { client } = useSession();
  const [name, setName] = useState(testimonial?.name ?? '');
  const [rating, setRating] = useState(String(testimonial?.rating ?? 5));
  const [comment, setComment] = useState(testimonial?.comment ?? '');
  const [imageUrl, setImageUrl] = useState(testimonial?.imageUrl ?? '');
  const [isVisible, setVisible] = useState(testimonial?.isVisible ?? true);
  const [order, setOrder] = useState(wholeNumberText(testimonial?.order ?? nextOrder));
  const errors = useCatalogFormErrors(['name', 'rating', 'comment', 'imageUrl', 'isVisible', 'order']);
  const save = useRefreshingMutation({
    mutationFn: () => {
      const body = {
        name,
        rating: Number(rating),
        comment,
        isVisible,
        order: numberOf(order) ?? 0,
        ...(imageUrl.trim()
          ? { imageUrl: imageUrl.trim() }
          : testimonial?.imageUrl
            ? { imageUrl: null }
            : {}),
      };
      return testimonial
        ? client.patch('/api/admin/reviews/testimonials/{id}', {
            params: { path: { id: testimonial.id } },
            body,
          })
        : client.post('/api/admin/reviews/testimonials', { body });
    },
    refreshes: ['reviews', 'testimonials'],
    onSuccess: onClose,
    onError: errors.show,
    action: testimonial ? t('actions.saveTestimonial') : t('actions.createTestimonial'),
  });
  return (
    <FormDialog
      onClose={onClose}
      title={
        testimonial ? t('testimonials.editTitle', { name: testimonial.name }) : t('testimonials.newTitle')
      }
      label={t('testimonials.formLabel')}
      errors={errors}
      save={save}
      creating={!testimonial}
    >
      <TextInput
        label={t('testimonials.name')}
        withAsterisk
        maxLength={120}
        {...textField(errors, 'name', name, setName)}
      />
      <Textarea
        label={t('testimonials.comment')}
        withAsterisk
        autosize
        minRows={3}
        {...textField(errors, 'comment', comment, setComment)}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <NativeSelect
          label={t('testimonials.rating')}
          data={RATINGS.map((value) => ({
            value: String(value),
            label: t('rating.stars', { count: value }),
          }))}
          value={rating}
          error={errors.of('rating')}
          onChange={(event) => {
            setRating(event.currentTarget.value);
            errors.clear('rating');
          }}
        />
        <WholeNumberInput
          label={t('testimonials.order')}
          description={t('testimonials.orderHelp')}
          {...valueField(errors, 'order', order, setOrder)}
        />
      </SimpleGrid>
      <TextInput
        label={t('testimonials.imageUrl')}
        description={t('testimonials.imageUrlHelp')}
        type="url"
        {...textField(errors, 'imageUrl', imageUrl, setImageUrl)}
      />
      <Switch
        label={t('testimonials.showOnStorefront')}
        checked={isVisible}
        onChange={(event) => {
          setVisible(event.currentTarget.checked);
          errors.clear('isVisible');
        }}
      />
    </FormDialog>
  );
}
