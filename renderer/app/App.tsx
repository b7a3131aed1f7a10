import { useEffect, type ReactNode } from 'react';
import type { Settings } from '../../shared/ipc';
import { SyncIndicator } from '../components/SyncIndicator';
import { ToastProvider } from '../components/Toasts';
import { useIpcEvents, useIpcQuery } from '../data/hooks';
import { I18nProvider, useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n';
import { CounterScreen } from '../screens/counter/CounterScreen';
import { ClientsScreen, ProductsScreen } from '../screens/CatalogScreens';
import { DashboardScreen } from '../screens/DashboardScreen';
import { FirstRunScreen } from '../screens/first-run/FirstRunScreen';
import { InvoiceDetail } from '../screens/invoices/InvoiceDetail';
import { InvoicesScreen } from '../screens/invoices/InvoicesScreen';
import { ExpensesScreen, SupplierBillsScreen, SuppliersScreen } from '../screens/PurchasesScreens';
import { ReceiptsScreen } from '../screens/ReceiptsScreen';
import { ImportScreen } from '../screens/imports/ImportScreen';
import { SeriesScreen } from '../screens/SeriesScreen';
import { SettingsScreen } from '../screens/SettingsScreen';
import { SetupWizard } from '../screens/setup/SetupWizard';
import { SyncScreen } from '../screens/SyncScreen';
import { AccountingScreen } from '../screens/accounting/AccountingScreen';
import { StockScreen } from '../screens/stock/StockScreen';
import { NirScreen } from '../screens/stock/NirScreen';
import { NirListScreen } from '../screens/stock/NirListScreen';
import { CountScreen } from '../screens/stock/CountScreen';
import { TransferScreen } from '../screens/stock/TransferScreen';
import { navigate, routeHash, useRoute, type Route, type Screen } from './router';

interface NavItem {
  screen: Screen;
  label: MessageKey;
  icon: string;
  /** Alt + this key opens the screen. */
  key?: string;
}

const NAV: { group: MessageKey; items: NavItem[] }[] = [
  {
    group: 'nav.group.sell',
    items: [
      { screen: 'counter', label: 'nav.counter', icon: '⌨', key: '1' },
      { screen: 'dashboard', label: 'nav.dashboard', icon: '◔', key: '2' },
      { screen: 'invoices', label: 'nav.invoices', icon: '▤', key: '3' },
      { screen: 'receipts', label: 'nav.receipts', icon: '✎', key: '4' },
    ],
  },
  {
    group: 'nav.group.records',
    items: [
      { screen: 'clients', label: 'nav.clients', icon: '☺', key: '5' },
      { screen: 'products', label: 'nav.products', icon: '▦', key: '6' },
      { screen: 'stock', label: 'nav.stock', icon: '▥' },
      { screen: 'nir', label: 'nav.nir', icon: '⇩' },
      { screen: 'nirs', label: 'nav.nirs', icon: '≣' },
      { screen: 'stockCount', label: 'nav.stockCount', icon: '☑' },
      { screen: 'stockTransfer', label: 'nav.stockTransfer', icon: '⇄' },
      { screen: 'expenses', label: 'nav.expenses', icon: '↘', key: '7' },
      { screen: 'supplierBills', label: 'nav.supplierBills', icon: '⇲', key: '8' },
      { screen: 'suppliers', label: 'nav.suppliers', icon: '⚑' },
      { screen: 'imports', label: 'imports.nav', icon: '⇪' },
      { screen: 'accounting', label: 'nav.accounting', icon: '∑' },
    ],
  },
  {
    group: 'nav.group.system',
    items: [
      { screen: 'series', label: 'nav.series', icon: '#', key: '9' },
      { screen: 'sync', label: 'nav.sync', icon: '⟳', key: '0' },
      { screen: 'settings', label: 'nav.settings', icon: '⚙' },
    ],
  },
];

export function App() {
  const settings = useIpcQuery('settings.get', undefined);
  // Second gate (issue 12): with a service configured, the setup wizard until onboarding is done.
  const setup = useIpcQuery('setup.get', undefined);
  useIpcEvents();
  const language = settings.data?.locale ?? 'ro';
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <I18nProvider language={language}>
      <ToastProvider>
        <FirstRunGate>
          {settings.data?.has_api_key && setup.data && !setup.data.onboarding_done ? <SetupWizard /> : <Shell settings={settings.data} />}
        </FirstRunGate>
      </ToastProvider>
    </I18nProvider>
  );
}

/** First-run gate: until a service is configured, the first-run screen instead of the app. */
function FirstRunGate({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const status = useIpcQuery('setup.status', undefined);
  // A host without the setup channels' answer still opens the app: Settings can configure it.
  if (status.isError) return <>{children}</>;
  if (!status.data) return <div className="content empty">{t('common.loading')}</div>;
  return status.data.needs_first_run ? <FirstRunScreen /> : <>{children}</>;
}

function screenTitle(route: Route): MessageKey {
  for (const group of NAV) for (const item of group.items) if (item.screen === route.screen) return item.label;
  return 'nav.counter';
}

function Shell({ settings }: { settings: Settings | undefined }) {
  const { t } = useI18n();
  const route = useRoute();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      for (const group of NAV) {
        const item = group.items.find((i) => i.key === e.key);
        if (item) {
          e.preventDefault();
          navigate({ screen: item.screen } as Route);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    document.title = `${t(screenTitle(route))} · Tejghea`;
  }, [route, t]);

  return (
    <div className="shell">
      <nav className="nav" aria-label={t('nav.label')}>
        <div className="brand">
          <span className="logo">T</span> Tejghea
        </div>
        {NAV.map((group) => (
          <div key={group.group} className="col" style={{ gap: 2 }}>
            <div className="group">{t(group.group)}</div>
            {group.items.map((item) => (
              <a key={item.screen} href={routeHash({ screen: item.screen } as Route)} className={route.screen === item.screen ? 'active' : ''} data-testid={`nav-${item.screen}`} aria-current={route.screen === item.screen ? 'page' : undefined}>
                <span className="icon" aria-hidden="true">
                  {item.icon}
                </span>
                {t(item.label)}
                {item.key ? <kbd>Alt+{item.key}</kbd> : null}
              </a>
            ))}
          </div>
        ))}
        <div className="foot">
          {settings?.company ? (
            <>
              <div style={{ color: '#fff', fontWeight: 600 }}>{settings.company.name}</div>
              <div>{settings.work_point?.name ?? ''}</div>
              <div>{settings.device.name}</div>
            </>
          ) : (
            <div>{settings?.device.name ?? ''}</div>
          )}
        </div>
      </nav>
      <div className="main">
        <header className="topbar">
          <h1 data-testid="screen-title">{t(screenTitle(route))}</h1>
          <span className="spacer" />
          {settings && !settings.has_api_key ? (
            <a className="badge warn" href={routeHash({ screen: 'settings' })}>
              {t('settings.noKeyBanner')}
            </a>
          ) : null}
          <SyncIndicator />
        </header>
        <ScreenView route={route} settings={settings} />
      </div>
    </div>
  );
}

function ScreenView({ route, settings }: { route: Route; settings: Settings | undefined }) {
  switch (route.screen) {
    case 'counter':
      return (
        <div className="content" style={{ overflow: 'hidden' }}>
          <CounterScreen key={route.id ?? 'new'} settings={settings} draftId={route.id} />
        </div>
      );
    case 'dashboard':
      return <DashboardScreen />;
    case 'invoices':
      return route.id ? <InvoiceDetail key={route.id} id={route.id} settings={settings} /> : <InvoicesScreen />;
    case 'receipts':
      return <ReceiptsScreen id={route.id} settings={settings} />;
    case 'expenses':
      return <ExpensesScreen />;
    case 'supplierBills':
      return <SupplierBillsScreen />;
    case 'suppliers':
      return <SuppliersScreen />;
    case 'clients':
      return <ClientsScreen id={route.id} />;
    case 'products':
      return <ProductsScreen id={route.id} />;
    case 'series':
      return <SeriesScreen id={route.id} />;
    case 'imports':
      return <ImportScreen kind={route.id} />;
    case 'sync':
      return <SyncScreen />;
    case 'accounting':
      return <AccountingScreen />;
    case 'stock':
      return <StockScreen />;
    case 'nir':
      return <NirScreen />;
    case 'nirs':
      return <NirListScreen />;
    case 'stockCount':
      return <CountScreen />;
    case 'stockTransfer':
      return <TransferScreen />;
    case 'settings':
      return <SettingsScreen settings={settings} />;
  }
}
