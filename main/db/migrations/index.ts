import type { Migration } from './types';
import { migration0001 } from './0001_core';
import { migration0002 } from './0002_catalog';
import { migration0003 } from './0003_invoicing';
import { migration0004 } from './0004_purchases';
import { migration0005 } from './0005_purchases_register';
import { migration0006 } from './0006_invoice_search';
import { migration0007 } from './0007_line_vat_category';
import { migration0008 } from './0008_receipt_reservations';
import { migration0009 } from './0009_invoice_delivery_date';
import { migration0010 } from './0010_line_price_includes_vat';
import { migration0011 } from './0011_invoice_seller_snapshot';
import { migration0012 } from './0012_counter_search';
import { migration0013 } from './0013_stock_levels';
import { migration0014 } from './0014_line_price_decimals';
import { migration0015 } from './0015_invoice_allowances_references';
import { migration0016 } from './0016_line_is_service';

/** Every migration this build knows, in order. Ids are 1..n with no hole. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007, migration0008, migration0009, migration0010, migration0011, migration0012, migration0013, migration0014, migration0015, migration0016];

export type { Migration };
