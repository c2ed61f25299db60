// Tax: the tax invoices and credit notes the API issues when tax invoices are on (IRD e-billing),
// each document's page (print, CBMS sync, a credit note from an invoice), and the sales and
// sales-return registers an accountant files. Screens load lazily.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

export const taxArea: ScreenArea = {
  namespace: 'tax',
  menu: [
    { labelKey: 'tax:menu.invoices', path: '/tax/invoices', permission: 'Invoices_READ' },
    { labelKey: 'tax:menu.creditNotes', path: '/tax/credit-notes', permission: 'Invoices_READ' },
    { labelKey: 'tax:menu.registers', path: '/tax/registers', permission: 'Invoices_READ' },
  ],
  routes: (parent) => [
    createRoute({
      getParentRoute: () => parent,
      path: '/tax/invoices',
      staticData: { permission: 'Invoices_READ' },
      component: lazyRouteComponent(() => import('./DocumentsScreen'), 'InvoicesScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/tax/credit-notes',
      staticData: { permission: 'Invoices_READ' },
      component: lazyRouteComponent(() => import('./DocumentsScreen'), 'CreditNotesScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/tax/invoices/$documentId',
      staticData: { permission: 'Invoices_READ' },
      component: lazyRouteComponent(() => import('./DocumentScreen'), 'InvoiceScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/tax/credit-notes/$documentId',
      staticData: { permission: 'Invoices_READ' },
      component: lazyRouteComponent(() => import('./DocumentScreen'), 'CreditNoteScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/tax/registers',
      staticData: { permission: 'Invoices_READ' },
      component: lazyRouteComponent(() => import('./RegistersScreen'), 'RegistersScreen'),
    }),
  ],
};
