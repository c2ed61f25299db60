// The screen areas of the console, in menu order. Adding an area: a folder under
// src/screens/ with index.ts (menu + routes) and locales/, and one line here.
import type { ScreenArea } from '../app/area';
import { catalogArea } from './catalog';
import { customersArea } from './customers';
import { dashboardArea } from './dashboard';
import { ordersArea } from './orders';
import { reportsArea } from './reports';
import { securityArea } from './security';
import { settingsArea } from './settings';
import { staffArea } from './staff';
import { supportArea } from './support';
import { taxArea } from './tax';

export const screenAreas: readonly ScreenArea[] = [
  dashboardArea,
  ordersArea,
  catalogArea,
  supportArea,
  customersArea,
  taxArea,
  reportsArea,
  staffArea,
  securityArea,
  settingsArea,
];
