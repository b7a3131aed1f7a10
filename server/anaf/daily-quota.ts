import { todayInBucharest } from '../../shared/dates';
import { AnafError } from './errors';

/**
 * ANAF's daily limits per message (its published "limite de apeluri"): a message's state may be asked
 * 100 times a day and a message downloaded 10 times a day; past that ANAF answers, with HTTP 200,
 * "S-au facut deja 10 descarcari la mesajul cu id_descarcare=… in cursul zilei". The ledger counts our
 * own calls per Bucharest day and refuses the next one itself, so we never hammer a closed door, and
 * when ANAF says the quota is spent (another program used it) it believes ANAF until the day ends.
 */
export const ANAF_DAILY_LIMITS = { status: 100, download: 10 } as const;
export type QuotaScope = keyof typeof ANAF_DAILY_LIMITS;

export interface QuotaInfo {
  scope: QuotaScope;
  id: string;
  limit: number;
  /** The Bucharest day the quota is spent for; it opens again the day after. */
  day: string;
}

/** "S-au facut deja 10 descarcari la mesajul cu id_descarcare=1 in cursul zilei": ANAF's quota words. */
export const ANAF_QUOTA_WORDS = /S-au facut deja (\d+) .*in cursul zilei/i;

export class DailyQuotaLedger {
  private readonly used = new Map<string, number>();
  private day = '';

  constructor(private readonly now: () => Date = () => new Date()) {}

  private key(scope: QuotaScope, id: string): string {
    const today = todayInBucharest(this.now());
    if (today !== this.day) {
      this.used.clear();
      this.day = today;
    }
    return `${scope}:${id}`;
  }

  /** Counts one call, or throws a quota AnafError (no call made) when today's limit is spent. */
  take(scope: QuotaScope, id: string, what: string): void {
    const k = this.key(scope, id);
    const n = this.used.get(k) ?? 0;
    const limit = ANAF_DAILY_LIMITS[scope];
    if (n >= limit) throw quotaError(what, { scope, id, limit, day: this.day }, []);
    this.used.set(k, n + 1);
  }

  /** ANAF said the quota is spent: believe it until the day ends. */
  exhaust(scope: QuotaScope, id: string): QuotaInfo {
    const k = this.key(scope, id);
    this.used.set(k, ANAF_DAILY_LIMITS[scope]);
    return { scope, id, limit: ANAF_DAILY_LIMITS[scope], day: this.day };
  }

  remaining(scope: QuotaScope, id: string): number {
    return ANAF_DAILY_LIMITS[scope] - (this.used.get(this.key(scope, id)) ?? 0);
  }
}

export function quotaError(what: string, quota: QuotaInfo, anafMessages: string[]): AnafError {
  const words = anafMessages.length ? anafMessages.join('; ') : `daily limit of ${quota.limit} ${quota.scope === 'download' ? 'downloads' : 'status checks'} for message ${quota.id} reached`;
  return Object.assign(new AnafError('unavailable', `${what}: ${words}`, { status: 200, anafMessages: anafMessages.length ? anafMessages : [words] }), { quota });
}

/** The ledger every client of this process shares: limits are per message, whichever request asks. */
export const sharedQuotaLedger = new DailyQuotaLedger();
