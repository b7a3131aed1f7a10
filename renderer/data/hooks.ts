import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { contract, type ChannelInput, type ChannelName, type ChannelOutput, type Domain } from '../../shared/ipc';
import { IpcCallError, ipc } from '../ipc';

/**
 * react-query over the typed IPC client. A query's key is `[channel, input]`; the domains it reads
 * come from the channel's prefix, so a mutation's `mutates` list (from the contract) and the
 * `data.changed` event invalidate exactly the queries that read those domains.
 */
const PREFIX_DOMAINS: Record<string, readonly Domain[]> = {
  app: ['settings'],
  settings: ['settings'],
  sync: ['sync', 'outbox'],
  outbox: ['outbox', 'sync'],
  invoices: ['invoices'],
  clients: ['clients'],
  // A product's stock changes with every sale (issue 15).
  products: ['products', 'invoices'],
  stock: ['products', 'invoices'],
  receipts: ['receipts'],
  // Payments change with their invoice (payments.create mutates 'invoices').
  payments: ['invoices', 'receipts'],
  series: ['series'],
  catalog: ['catalog'],
  purchases: ['purchases'],
  expenses: ['purchases'],
  dashboard: ['invoices', 'receipts', 'outbox', 'settings'],
  company: ['settings'],
  // Imports are calls, not cached reads; what they change is the catalogue.
  imports: ['products', 'clients'],
  // The setup wizard's state is inferred from the cached series until the wizard writes it (main/local/setup.ts).
  setup: ['settings', 'series'],
  bankAccounts: ['settings'],
  // Files made from the documents (the Contabilitate screen): what their changes make stale.
  accounting: ['invoices', 'receipts', 'purchases'],
  // Upload deadlines change when an invoice is issued, sent or answered by ANAF (through sync).
  efactura: ['invoices', 'sync'],
  // The carts kept on this device change with the counter's default method (a setting).
  counter: ['settings'],
};

export function domainsOf(channel: unknown): readonly Domain[] {
  if (typeof channel !== 'string') return [];
  return PREFIX_DOMAINS[channel.split('.')[0] ?? ''] ?? [];
}

export function invalidateDomains(queryClient: QueryClient, domains: readonly Domain[]): Promise<void> {
  const wanted = new Set(domains);
  return queryClient.invalidateQueries({ predicate: (query) => domainsOf(query.queryKey[0]).some((d) => wanted.has(d)) });
}

async function call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const reply = await ipc().request(channel, input);
  if (!reply.ok) throw new IpcCallError(reply.error);
  return reply.value;
}

export interface IpcQueryOptions {
  enabled?: boolean;
  /** Keep showing the previous result while a new input loads (lists being filtered). */
  keepPrevious?: boolean;
  refetchIntervalMs?: number;
}

export function ipcQueryKey<C extends ChannelName>(channel: C, input: ChannelInput<C>): readonly unknown[] {
  return [channel, input ?? null];
}

export function useIpcQuery<C extends ChannelName>(channel: C, input: ChannelInput<C>, options: IpcQueryOptions = {}) {
  return useQuery({
    queryKey: ipcQueryKey(channel, input),
    queryFn: () => call(channel, input),
    enabled: options.enabled ?? true,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
    refetchInterval: options.refetchIntervalMs,
  });
}

/** A mutation; on success the domains the contract says it changes are refetched. */
export function useIpcMutation<C extends ChannelName>(channel: C) {
  const queryClient = useQueryClient();
  return useMutation<ChannelOutput<C>, IpcCallError, ChannelInput<C>>({
    mutationFn: (input) => call(channel, input),
    onSuccess: async () => {
      const spec = contract[channel] as { mutates?: readonly Domain[] };
      if (spec.mutates) await invalidateDomains(queryClient, spec.mutates);
    },
  });
}

/** One-off call outside react-query (printing, lookups). */
export function callIpc<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  return call(channel, input);
}

/** Host events: what the sync engine changed, and the sync status as it moves. */
export function useIpcEvents(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const offs = [
      ipc().on('data.changed', (payload) => void invalidateDomains(queryClient, payload.domains)),
      ipc().on('sync.status', (status) => {
        queryClient.setQueryData(ipcQueryKey('sync.status', undefined), status);
        void invalidateDomains(queryClient, ['outbox']);
      }),
      ipc().on('outbox.changed', () => void invalidateDomains(queryClient, ['outbox', 'sync'])),
    ];
    return () => offs.forEach((off) => off());
  }, [queryClient]);
}
