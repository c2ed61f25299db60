// The review moderation queue: pending reviews first (the list opens on them), each as a card
// that reads well on a phone: product, rating, text, the name as the storefront will show it
// (masked for customers), the order it came from, why it was rejected, Approve / Reject (with an
// optional reason) for a role that may moderate and Delete for one that may delete. Filters
// (status, rating, product, source, search) and the page live in the address.
import {
  Anchor,
  Box,
  Button,
  Group,
  Modal,
  NativeSelect,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterFold } from '../../components/FilterFold';
import { StoreDateTime } from '../../components/Formatted';
import { usePagedList } from '../../components/PagedTable';
import { ProductPicker } from '../../components/ProductPicker';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { fieldRules, textField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { Can, useSession } from '../../session/session';
import {
  checkedSave,
  handleSubmit,
  useCatalogFormErrors,
  useRefreshingMutation,
} from '../catalog/catalog-forms';
import { ConfirmButton, useSearchText, useUrlFilters } from '../catalog/catalog-ui';
import {
  deleteReview,
  fetchReviews,
  RATINGS,
  REJECTION_REASON_MAX,
  REVIEW_SOURCES,
  REVIEW_STATUSES,
  type Review,
  type ReviewDecision,
  type ReviewListQuery,
  type ReviewStatus,
  setReviewStatus,
  shownReviewerName,
  stars,
} from './reviews-api';

const STATUS_COLOR: Record<ReviewStatus, string> = { pending: 'yellow', approved: 'teal', rejected: 'red' };

function oneOf<T extends string | number>(values: readonly T[], raw: string | undefined): T | undefined {
  return values.find((value) => String(value) === raw);
}

export function ReviewsScreen() {
  const { t } = useTranslation('reviews');
  const { client, can } = useSession();
  const { values, set } = useUrlFilters(['status', 'rating', 'productId', 'source', 'search'] as const);
  const searchBox = useSearchText(values, set);
  // The queue opens on what waits for a decision; "all" shows every status.
  const status = values.status === 'all' ? undefined : (oneOf(REVIEW_STATUSES, values.status) ?? 'pending');
  const rating = oneOf(RATINGS, values.rating);
  const productId =
    Number.isInteger(Number(values.productId)) && Number(values.productId) > 0
      ? Number(values.productId)
      : null;
  const source = oneOf(REVIEW_SOURCES, values.source);
  const filtered = values.status !== undefined || rating || productId || source || values.search;

  const query: ReviewListQuery = {
    sort: 'createdAt',
    order: status === 'pending' ? 'asc' : 'desc',
    ...(status ? { status } : {}),
    ...(rating ? { rating } : {}),
    ...(productId ? { productId } : {}),
    ...(source ? { reviewSource: source } : {}),
    ...(values.search ? { search: values.search } : {}),
  };
  const list = usePagedList<Review>({
    queryKey: ['reviews', 'list', query],
    fetchPage: ({ page, size }) => fetchReviews(client, { ...query, page, size }),
    action: t('actions.loadReviews'),
  });

  const rows = list.query.data?.data ?? [];
  const count = list.query.data?.meta?.count ?? rows.length;
  const pages = Math.max(1, Math.ceil(count / list.size));
  // Product names: one request per product on this page (cached), for staff who may read products.
  const productIds = can('Products_READ') ? [...new Set(rows.map((row) => row.productId))] : [];
  const products = useQueries({
    queries: productIds.map((id) => ({
      queryKey: ['products', 'picker', 'one', id],
      queryFn: () => client.get('/api/admin/products/{id}', { params: { path: { id } } }),
      staleTime: 300_000,
      meta: { action: t('actions.loadProducts') },
    })),
  });
  const productName = (id: number) => products[productIds.indexOf(id)]?.data?.title;

  return (
    <Screen title={t('queue.title')}>
      <Paper
        withBorder
        p="md"
        component="form"
        role="search"
        aria-label={t('filters.title')}
        onSubmit={(event) => event.preventDefault()}
      >
        <Stack gap="sm">
          <TextInput
            type="search"
            label={t('filters.search')}
            placeholder={t('filters.searchPlaceholder')}
            {...searchBox}
          />
          <FilterFold
            active={[values.status, rating, productId, source].filter((value) => value != null).length}
          >
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
              <NativeSelect
                label={t('filters.status')}
                value={values.status === 'all' ? 'all' : (status ?? 'pending')}
                onChange={(event) =>
                  set('status', event.currentTarget.value === 'pending' ? null : event.currentTarget.value)
                }
                data={[
                  ...REVIEW_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
                  { value: 'all', label: t('filters.allStatuses') },
                ]}
              />
              <NativeSelect
                label={t('filters.rating')}
                value={rating ? String(rating) : ''}
                onChange={(event) => set('rating', event.currentTarget.value)}
                data={[
                  { value: '', label: t('filters.any') },
                  ...RATINGS.map((value) => ({
                    value: String(value),
                    label: t('rating.stars', { count: value }),
                  })),
                ]}
              />
              {can('Products_READ') && (
                <ProductPicker
                  label={t('filters.product')}
                  placeholder={t('filters.anyProduct')}
                  value={productId}
                  onChange={(id) => set('productId', id === null ? null : String(id))}
                  action={t('actions.loadProducts')}
                  nothingFound={t('filters.noProduct')}
                />
              )}
              <NativeSelect
                label={t('filters.source')}
                value={source ?? ''}
                onChange={(event) => set('source', event.currentTarget.value)}
                data={[
                  { value: '', label: t('filters.any') },
                  ...REVIEW_SOURCES.map((value) => ({ value, label: t(`source.${value}`) })),
                ]}
              />
            </SimpleGrid>
          </FilterFold>
        </Stack>
      </Paper>

      {list.query.isPending ? (
        <LoadingState />
      ) : list.query.isError && !list.query.data ? (
        <ErrorState error={list.query.error} onRetry={() => list.query.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          message={
            filtered ? t('queue.noMatch') : status === 'pending' ? t('queue.nonePending') : t('queue.none')
          }
        />
      ) : (
        <Box aria-busy={list.query.isPlaceholderData}>
          <Title order={2} size="h4" mb="xs">
            {status ? t('queue.heading', { status: t(`status.${status}`) }) : t('queue.headingAll')}
          </Title>
          <Stack
            gap="sm"
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={t('queue.caption')}
          >
            {rows.map((review) => (
              <ReviewCard key={review.id} review={review} productName={productName(review.productId)} />
            ))}
          </Stack>
          <Group justify="space-between" mt="md">
            <Text size="sm" c="dimmed">
              {t('common:list.showing', {
                from: formatCount((list.page - 1) * list.size + 1),
                to: formatCount((list.page - 1) * list.size + rows.length),
                total: formatCount(count),
              })}
            </Text>
            {pages > 1 && (
              <nav aria-label={t('common:list.pages')}>
                <Pagination
                  total={pages}
                  value={Math.min(list.page, pages)}
                  onChange={list.setPage}
                  getItemProps={(item) => ({ 'aria-label': t('common:list.page', { page: item }) })}
                  getControlProps={(control) => ({ 'aria-label': t(`common:list.${control}`) })}
                />
              </nav>
            )}
          </Group>
        </Box>
      )}
    </Screen>
  );
}

function ReviewCard({ review, productName }: { review: Review; productName: string | undefined }) {
  const { t } = useTranslation('reviews');
  const { client, can } = useSession();
  const name = shownReviewerName(review);
  const [rejecting, setRejecting] = useState(false);
  const decide = useRefreshingMutation({
    mutationFn: (decision: ReviewDecision) => setReviewStatus(client, review.id, decision),
    refreshes: ['reviews'],
    action: t('actions.moderate'),
  });
  const remove = useRefreshingMutation({
    mutationFn: () => deleteReview(client, review.id),
    refreshes: ['reviews'],
    action: t('actions.delete'),
  });
  const product = productName ?? t('queue.productNumber', { id: review.productId });
  return (
    <Paper component="li" withBorder p="md" aria-label={t('queue.cardLabel', { name, product })}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={0}>
            {can('Products_READ') ? (
              <Anchor component={Link} to={`/catalog/products/${review.productId}`} fw={600}>
                {product}
              </Anchor>
            ) : (
              <Text fw={600}>{product}</Text>
            )}
            <Text size="sm">
              <span aria-hidden style={{ color: 'var(--mantine-color-yellow-9)' }}>
                {stars(review.rating)}
              </span>{' '}
              {t('rating.outOf', { rating: review.rating })}
            </Text>
          </Stack>
          <StateBadge color={STATUS_COLOR[review.status]}>{t(`status.${review.status}`)}</StateBadge>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {review.comment ?? (
            <Text span c="dimmed" size="sm">
              {t('queue.noComment')}
            </Text>
          )}
        </Text>
        {review.status === 'rejected' && review.rejectionReason && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600} size="sm">
              {t('queue.reason')}
            </Text>{' '}
            {review.rejectionReason}
          </Text>
        )}
        <Group gap="md" wrap="wrap">
          <Text size="xs" c="dimmed">
            {t('queue.by', { name })} · {t(`source.${review.reviewSource}`)}
          </Text>
          <StoreDateTime value={review.createdAt} size="xs" c="dimmed" />
          {review.orderId !== null &&
            (can('Orders_READ') ? (
              <Anchor component={Link} to={`/orders/${review.orderId}`} size="xs">
                {t('queue.order', { id: review.orderId })}
              </Anchor>
            ) : (
              <Text size="xs" c="dimmed">
                {t('queue.order', { id: review.orderId })}
              </Text>
            ))}
        </Group>
        {(can('Reviews_UPDATE') || can('Reviews_DELETE')) && (
          <Group gap="xs">
            {can('Reviews_UPDATE') && review.status !== 'approved' && (
              <Button
                size="xs"
                loading={decide.isPending && decide.variables?.status === 'approved'}
                onClick={() => decide.mutate({ status: 'approved' })}
                aria-label={t('queue.approveNamed', { name, product })}
              >
                {t('queue.approve')}
              </Button>
            )}
            {can('Reviews_UPDATE') && (
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => setRejecting(true)}
                aria-label={t(
                  review.status === 'rejected' ? 'queue.changeReasonNamed' : 'queue.rejectNamed',
                  {
                    name,
                    product,
                  },
                )}
              >
                {review.status === 'rejected' ? t('queue.changeReason') : t('queue.reject')}
              </Button>
            )}
            <Can permission="Reviews_DELETE">
              <ConfirmButton
                size="xs"
                variant="subtle"
                label={t('queue.delete')}
                aria-label={t('queue.deleteNamed', { name, product })}
                title={t('queue.deleteTitle')}
                message={t('queue.deleteMessage', { name, product })}
                confirmLabel={t('queue.delete')}
                onConfirm={() => remove.mutateAsync()}
              />
            </Can>
          </Group>
        )}
        {rejecting && (
          <RejectDialog
            review={review}
            name={name}
            product={product}
            decide={decide}
            onClose={() => setRejecting(false)}
          />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Reject with an optional reason, for staff only (the storefront and the customer never see it).
 * A rejected review opened again keeps its reason to edit; an emptied box rejects without one.
 */
function RejectDialog(props: {
  review: Review;
  name: string;
  product: string;
  decide: { mutateAsync(decision: ReviewDecision): Promise<unknown>; isPending: boolean };
  onClose(): void;
}) {
  const { t } = useTranslation('reviews');
  const [reason, setReason] = useState(props.review.rejectionReason ?? '');
  const errors = useCatalogFormErrors({ reason: t('queue.reasonLabel') });
  const save = {
    isPending: props.decide.isPending,
    mutate: () =>
      props.decide
        .mutateAsync({ status: 'rejected', ...(reason.trim() ? { reason: reason.trim() } : {}) })
        .then(props.onClose, errors.show),
  };
  const submit = checkedSave(save, () =>
    errors.check({ reason: fieldRules.text(reason, { maximum: REJECTION_REASON_MAX }) }),
  );
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('queue.rejectTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('queue.cancel') }}
    >
      <form noValidate aria-label={t('queue.rejectTitle')} onSubmit={handleSubmit(submit.mutate)}>
        <Stack gap="sm">
          <Text size="sm">{t('queue.rejectMessage', { name: props.name, product: props.product })}</Text>
          <FormError message={errors.message} />
          <Textarea
            label={t('queue.reasonLabel')}
            description={t('queue.reasonHelp', { max: formatCount(REJECTION_REASON_MAX) })}
            autosize
            minRows={2}
            data-autofocus
            {...textField(errors, 'reason', reason, setReason)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('queue.cancel')}
            </Button>
            <Button type="submit" color="red" loading={save.isPending}>
              {t('queue.reject')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
