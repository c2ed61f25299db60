// Testimonials: the back office writes them; the storefront shows the visible ones. There is
// no moderation status: `isVisible` alone decides exposure.
import type { UserPrincipal } from '../../../platform/auth/principal';
import { inTransaction } from '../../../platform/db/transaction';
import { AppError } from '../../../platform/http/errors';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { testimonialErrors } from './testimonials.errors';
import * as repo from './testimonials.repository';
import {
  type AdminTestimonialListQuery,
  type CreateTestimonialBody,
  PUBLIC_SORTS,
  type PublicTestimonial,
  type PublicTestimonialListQuery,
  type Testimonial,
  type UpdateTestimonialBody,
} from './testimonials.schemas';

export type TestimonialDeps = Pick<ModuleContext, 'db' | 'clock' | 'log'>;

const TESTIMONIAL = 'testimonial';

const toTestimonial = (r: repo.TestimonialRow): Testimonial => ({
  id: r.id,
  name: r.name,
  rating: r.rating,
  comment: r.comment,
  imageUrl: r.imageUrl,
  isVisible: r.isVisible,
  order: r.displayOrder,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const toPublic = (r: repo.TestimonialRow): PublicTestimonial => {
  const { isVisible: _visible, updatedAt: _updated, ...rest } = toTestimonial(r);
  return rest;
};

export async function createTestimonial(
  deps: TestimonialDeps,
  admin: UserPrincipal,
  body: CreateTestimonialBody,
): Promise<Testimonial> {
  const at = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (tx) => {
      const row = await repo.insertTestimonial(tx, {
        name: body.name,
        rating: body.rating,
        comment: body.comment,
        imageUrl: body.imageUrl ?? null,
        isVisible: body.isVisible,
        displayOrder: body.order,
        createdAt: at,
        updatedAt: at,
      });
      await recordActivity(tx, {
        adminId: admin.userId,
        action: 'create',
        entityType: TESTIMONIAL,
        entityId: row.id,
        summary: `Created testimonial #${row.id} by ${row.name}`,
        at,
      });
      return toTestimonial(row);
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The interface's code for an insert that failed for a reason validation could not see.
    deps.log.error({ err: error }, 'testimonial insert failed');
    throw testimonialErrors.createFailed();
  }
}

export async function updateTestimonial(
  deps: TestimonialDeps,
  admin: UserPrincipal,
  id: number,
  body: UpdateTestimonialBody,
): Promise<Testimonial> {
  const at = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    const { order, ...fields } = body;
    const row = await repo.updateTestimonial(tx, id, {
      ...fields,
      ...(order === undefined ? {} : { displayOrder: order }),
      updatedAt: at,
    });
    if (!row) throw testimonialErrors.notFound();
    const changed = Object.entries(body)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'update',
      entityType: TESTIMONIAL,
      entityId: id,
      summary: `Updated testimonial #${id}: ${changed.join(', ')}`,
      at,
    });
    return toTestimonial(row);
  });
}

/** Deletes for good (testimonials have no history to keep); answers the deleted record. */
export async function deleteTestimonial(
  deps: TestimonialDeps,
  admin: UserPrincipal,
  id: number,
): Promise<Testimonial> {
  return inTransaction(deps.db, async (tx) => {
    const row = await repo.deleteTestimonial(tx, id);
    if (!row) throw testimonialErrors.notFound();
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'delete',
      entityType: TESTIMONIAL,
      entityId: id,
      summary: `Deleted testimonial #${id} by ${row.name}`,
      at: deps.clock.now(),
    });
    return toTestimonial(row);
  });
}

export async function getTestimonial(deps: TestimonialDeps, id: number): Promise<Testimonial> {
  const row = await repo.findTestimonial(deps.db, id);
  if (!row) throw testimonialErrors.notFound();
  return toTestimonial(row);
}

export async function listAdminTestimonials(
  deps: TestimonialDeps,
  q: AdminTestimonialListQuery,
): Promise<{ testimonials: Testimonial[]; meta: PageMeta }> {
  const { rows, count } = await repo.listTestimonials(
    deps.db,
    { search: q.search, isVisible: q.isVisible },
    { by: q.sort, order: q.order },
    pageWindow(q),
  );
  return { testimonials: rows.map(toTestimonial), meta: pageMeta(q, count) };
}

const isPublicSort = (sort: string): sort is (typeof PUBLIC_SORTS)[number] =>
  (PUBLIC_SORTS as readonly string[]).includes(sort);

/** Visible testimonials only; an unsupported `sort` is TESTIMONIAL_INVALID_SORT. */
export async function listPublicTestimonials(
  deps: TestimonialDeps,
  q: PublicTestimonialListQuery,
): Promise<{ testimonials: PublicTestimonial[]; meta: PageMeta }> {
  if (!isPublicSort(q.sort)) throw testimonialErrors.invalidSort(q.sort, PUBLIC_SORTS);
  const { rows, count } = await repo.listTestimonials(
    deps.db,
    { isVisible: true, rating: q.rating },
    { by: q.sort, order: q.order },
    pageWindow(q),
  );
  return { testimonials: rows.map(toPublic), meta: pageMeta(q, count) };
}
