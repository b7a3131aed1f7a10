import { eachOf, inside, rename, renameValues, type AliasRule } from '../../platform/aliases';
import { CLIENT_ALIASES } from '../catalog/aliases';

/**
 * The names Contazen's PHP SDK gives an invoice's members (docs/api-decisions.md, "Member aliases").
 * The contract's names stay primary: a handler only ever sees these after the rewrite.
 */

const MAX_DUE_DAYS = 3650;
const DUE_DAYS_MESSAGE = `A whole number of days from 0 to ${MAX_DUE_DAYS}.|Un număr întreg de zile, de la 0 la ${MAX_DUE_DAYS}.`;

/** `day` plus `days` calendar days, both as `YYYY-MM-DD`; undefined for what is not a calendar date. */
export function addDays(day: string, days: number): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const start = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== day) return undefined;
  return new Date(start + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * `due_days`: the due date as days after the issue date (given, or today on a create). On an update the
 * issue date must be in the same request: the alias layer does not read the stored draft.
 */
function dueDays(onCreate: boolean): AliasRule {
  return rename('due_days', 'due_date', (value, input, run, path) => {
    const at = path ? `${path}.due_days` : 'due_days';
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_DUE_DAYS) {
      run.invalid[at] = DUE_DAYS_MESSAGE;
      return undefined;
    }
    const issue = input.issue_date ?? (onCreate ? run.today() : undefined);
    if (issue === undefined) {
      run.invalid[at] =
        'On an update, send `issue_date` (or `date`) with `due_days`, or send `due_date`.|' +
        'La modificare, trimiteți `issue_date` (sau `date`) împreună cu `due_days`, sau trimiteți `due_date`.';
      return undefined;
    }
    // An issue date that is not a date is refused under its own name; the due date then waits for it.
    return typeof issue === 'string' ? addDays(issue, value) : undefined;
  });
}

const LINE_ALIASES: AliasRule[] = [rename('name', 'description'), rename('unit_of_measure', 'unit'), rename('ubl_um', 'unit_code')];

function invoiceBody(onCreate: boolean): AliasRule[] {
  return [
    // `date` first: `due_days` counts from the issue date it names.
    rename('date', 'issue_date'),
    dueDays(onCreate),
    // `notes` is what the SDK's createFromOrder sends (an empty string when the order has none).
    rename('notes', 'observations'),
    eachOf('items', LINE_ALIASES),
    ...(onCreate ? [rename('client_data', 'client'), inside('client', CLIENT_ALIASES)] : []),
  ];
}

export const INVOICE_CREATE_ALIASES = { body: invoiceBody(true) };
export const INVOICE_UPDATE_ALIASES = { body: invoiceBody(false) };

/**
 * The SDK's list statuses are states of ours under other names: `sent` is an issued invoice, `cancelled`
 * a voided one, `paid` the paid state, `overdue` the `overdue` filter. A status moved to another member
 * conflicts with a different value given there.
 */
const statusMovedTo = (status: string, member: string, value: string): AliasRule => (input, run) => {
  if (input.status !== status) return input;
  const { status: _moved, ...rest } = input;
  if (Object.hasOwn(input, member) && input[member] !== value) {
    run.conflicts.status = `\`status=${status}\` means \`${member}=${value}\`, which is also given with another value.|` +
      `\`status=${status}\` înseamnă \`${member}=${value}\`, trimis și el, cu altă valoare.`;
    return input;
  }
  return { ...rest, [member]: value };
};

export const INVOICE_LIST_ALIASES = {
  query: [
    renameValues('sort', { date: 'issue_date' }),
    renameValues('status', { sent: 'issued', cancelled: 'voided' }),
    statusMovedTo('paid', 'paid_state', 'paid'),
    statusMovedTo('overdue', 'overdue', 'true'),
  ],
};
