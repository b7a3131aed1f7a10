import { useSyncExternalStore } from 'react';

/**
 * Hash routes (`#/invoices/inv_…`): they work the same from a file in Electron and over HTTP in
 * the web host, and need no server-side fallback.
 */
export type Route =
  | { screen: 'counter'; id?: string }
  | { screen: 'dashboard' }
  | { screen: 'invoices'; id?: string }
  | { screen: 'receipts'; id?: string }
  | { screen: 'expenses' }
  | { screen: 'supplierBills' }
  | { screen: 'clients'; id?: string }
  | { screen: 'products'; id?: string }
  | { screen: 'suppliers' }
  | { screen: 'series'; id?: string }
  | { screen: 'imports'; id?: string }
  | { screen: 'sync' }
  | { screen: 'accounting' }
  | { screen: 'stock' }
  | { screen: 'nir' }
  | { screen: 'nirs' }
  | { screen: 'stockCount' }
  | { screen: 'stockTransfer' }
  | { screen: 'settings' };

export type Screen = Route['screen'];

const PATHS: Record<Screen, string> = {
  counter: 'counter',
  dashboard: 'dashboard',
  invoices: 'invoices',
  receipts: 'receipts',
  expenses: 'expenses',
  supplierBills: 'supplier-bills',
  clients: 'clients',
  products: 'products',
  suppliers: 'suppliers',
  series: 'series',
  imports: 'import',
  sync: 'sync',
  accounting: 'accounting',
  stock: 'stock',
  nir: 'nir',
  nirs: 'nirs',
  stockCount: 'stock-count',
  stockTransfer: 'stock-transfer',
  settings: 'settings',
};

const BY_PATH = new Map(Object.entries(PATHS).map(([screen, path]) => [path, screen as Screen]));

export function parseHash(hash: string): Route {
  const [path = '', id] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const screen = BY_PATH.get(path) ?? 'counter';
  if (id && (screen === 'counter' || screen === 'invoices' || screen === 'receipts' || screen === 'clients' || screen === 'products' || screen === 'series' || screen === 'imports')) {
    return { screen, id };
  }
  return { screen } as Route;
}

export function routeHash(route: Route): string {
  const id = 'id' in route && route.id ? `/${encodeURIComponent(route.id)}` : '';
  return `#/${PATHS[route.screen]}${id}`;
}

export function navigate(route: Route): void {
  const hash = routeHash(route);
  if (window.location.hash !== hash) window.location.hash = hash;
}

function subscribe(callback: () => void): () => void {
  window.addEventListener('hashchange', callback);
  return () => window.removeEventListener('hashchange', callback);
}

let cachedHash = '';
let cachedRoute: Route = { screen: 'counter' };

function snapshot(): Route {
  if (window.location.hash !== cachedHash) {
    cachedHash = window.location.hash;
    cachedRoute = parseHash(cachedHash);
  }
  return cachedRoute;
}

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, snapshot);
}
