import { useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../shared/ipc';
import { callIpc, ipcQueryKey } from '../data/hooks';

type PagedChannel = Extract<ChannelName, 'invoices.list' | 'clients.list' | 'products.list' | 'receipts.list' | 'purchases.expenses' | 'purchases.suppliers' | 'purchases.supplierBills' | 'outbox.list' | 'stock.levels'>;
type ItemOf<C extends PagedChannel> = ChannelOutput<C>['items'][number];

export const PAGE_SIZE = 200;
const HEADER_HEIGHT = 34;

/**
 * A list of any length, read page by page from the host as the user scrolls: only the pages under
 * the viewport are requested (each is one react-query query, so `data.changed` refreshes them),
 * and only the rows on screen are in the DOM. 100 000 invoices cost what 30 do.
 */
export function usePagedList<C extends PagedChannel>(channel: C, input: Omit<ChannelInput<C>, 'limit' | 'offset'>, visiblePages: readonly number[]) {
  const pages = visiblePages.length > 0 ? visiblePages : [0];
  const inputKey = JSON.stringify(input);
  // The total survives scrolling to pages not loaded yet: without it the list would collapse to
  // zero rows while a far page loads, and scroll back to the top.
  const lastTotal = useRef<{ key: string; total: number } | null>(null);
  const results = useQueries({
    queries: pages.map((page) => {
      const pageInput = { ...input, limit: PAGE_SIZE, offset: page * PAGE_SIZE } as ChannelInput<C>;
      return {
        queryKey: ipcQueryKey(channel, pageInput),
        queryFn: () => callIpc(channel, pageInput),
      };
    }),
  });
  const byPage = new Map<number, ChannelOutput<C>>();
  let total: number | undefined;
  let loading = false;
  let error: unknown = null;
  let settled = true;
  results.forEach((r, i) => {
    settled &&= r.isSuccess && !r.isFetching;
    if (r.data) {
      byPage.set(pages[i]!, r.data as ChannelOutput<C>);
      total ??= (r.data as ChannelOutput<C>).total;
    }
    loading ||= r.isFetching;
    error ??= r.error;
  });
  if (total !== undefined) lastTotal.current = { key: inputKey, total };
  else if (lastTotal.current?.key === inputKey) total = lastTotal.current.total;
  const itemAt = (index: number): ItemOf<C> | undefined => {
    const page = byPage.get(Math.floor(index / PAGE_SIZE));
    return page?.items[index % PAGE_SIZE] as ItemOf<C> | undefined;
  };
  /** `settled`: every page on screen holds the answer to the current input (tests and benchmarks wait on it). */
  return { total, itemAt, loading, error, settled };
}

export interface Column {
  key: string;
  header: ReactNode;
  width: string;
  className?: string;
}

export function VirtualList<T>(props: {
  total: number;
  columns: readonly Column[];
  itemAt(index: number): T | undefined;
  renderCell(item: T, column: string, index: number): ReactNode;
  onVisiblePages(pages: number[]): void;
  onOpen?(item: T, index: number): void;
  rowKey(item: T | undefined, index: number): string;
  selected?: number;
  onSelect?(index: number): void;
  testId?: string;
  empty?: ReactNode;
  rowHeight?: number;
  /** The answer on screen is the current one (exposed as data-settled). */
  settled?: boolean;
  /** What the list shows (exposed as data-filter, e.g. the filters' JSON). */
  filterKey?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowHeight = props.rowHeight ?? 36;
  const virtualizer = useVirtualizer({
    count: props.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    // The sticky header sits above the rows inside the same scroller.
    scrollMargin: HEADER_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const firstPage = Math.floor(first / PAGE_SIZE);
  const lastPage = Math.floor(last / PAGE_SIZE);
  const { onVisiblePages } = props;
  useEffect(() => {
    const pages: number[] = [];
    for (let p = firstPage; p <= lastPage; p++) pages.push(p);
    onVisiblePages(pages);
  }, [firstPage, lastPage, onVisiblePages]);
  useEffect(() => {
    if (props.selected !== undefined && props.selected >= 0) virtualizer.scrollToIndex(props.selected, { align: 'auto' });
  }, [props.selected, virtualizer]);
  const template = props.columns.map((c) => c.width).join(' ');

  return (
    <div
      ref={scrollRef}
      className="vlist"
      data-testid={props.testId}
      data-total={props.total}
      data-settled={props.settled === undefined ? undefined : String(props.settled)}
      data-filter={props.filterKey}
      tabIndex={0}
      role="grid"
      aria-rowcount={props.total}
      onKeyDown={(e) => {
        if (!props.onSelect) return;
        const current = props.selected ?? -1;
        if (e.key === 'ArrowDown') {
          e.preventDefault();
          props.onSelect(Math.min(props.total - 1, current + 1));
        } else if (e.key === 'ArrowUp') {
          e.preventDefault();
          props.onSelect(Math.max(0, current - 1));
        } else if (e.key === 'PageDown') {
          e.preventDefault();
          props.onSelect(Math.min(props.total - 1, current + 15));
        } else if (e.key === 'PageUp') {
          e.preventDefault();
          props.onSelect(Math.max(0, current - 15));
        } else if (e.key === 'Enter' && current >= 0) {
          const item = props.itemAt(current);
          if (item !== undefined) props.onOpen?.(item, current);
        }
      }}
    >
      <div className="vhead" style={{ gridTemplateColumns: template }} role="row">
        {props.columns.map((c) => (
          <div key={c.key} className={c.className} role="columnheader">
            {c.header}
          </div>
        ))}
      </div>
      {props.total === 0 ? (
        props.empty ?? null
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((row) => {
            const item = props.itemAt(row.index);
            return (
              <div
                key={props.rowKey(item, row.index)}
                className={`vrow${row.index === props.selected ? ' selected' : ''}`}
                role="row"
                data-testid="vrow"
                data-index={row.index}
                style={{ gridTemplateColumns: template, transform: `translateY(${row.start - HEADER_HEIGHT}px)`, height: rowHeight }}
                onClick={() => {
                  props.onSelect?.(row.index);
                  if (item !== undefined) props.onOpen?.(item, row.index);
                }}
              >
                {props.columns.map((c) => (
                  <div key={c.key} className={c.className} role="gridcell">
                    {item !== undefined ? props.renderCell(item, c.key, row.index) : c.key === props.columns[0]?.key ? '…' : ''}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
