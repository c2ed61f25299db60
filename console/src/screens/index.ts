// The screen areas of the console, in menu order. Adding an area: a folder under
// src/screens/ with index.ts (menu + routes) and locales/, and one line here.
import type { ScreenArea } from '../app/area';
import { bannersArea } from './banners';
import { blogArea } from './blog';
import { catalogArea } from './catalog';
import { contentArea } from './content';
import { counterArea } from './counter';
import { couponsArea } from './coupons';
import { customersArea } from './customers';
import { dashboardArea } from './dashboard';
import { emiArea } from './emi';
import { moneyArea } from './money';
import { ordersArea } from './orders';
import { repairsArea } from './repairs';
import { reportsArea } from './reports';
import { reviewsArea } from './reviews';
import { securityArea } from './security';
import { settingsArea } from './settings';
import { staffArea } from './staff';
import { supportArea } from './support';
import { taxArea } from './tax';

export const screenAreas: readonly ScreenArea[] = [
  dashboardArea,
  ordersArea,
  moneyArea,
  counterArea,
  repairsArea,
  emiArea,
  catalogArea,
  supportArea,
  reviewsArea,
  couponsArea,
  contentArea,
  bannersArea,
  blogArea,
  customersArea,
  taxArea,
  reportsArea,
  staffArea,
  securityArea,
  settingsArea,
];
