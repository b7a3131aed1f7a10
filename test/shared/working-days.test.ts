import { describe, expect, it } from 'vitest';
import { addWorkingDays, efacturaUploadDeadline, isRomanianWorkingDay, orthodoxEaster, romanianPublicHolidays, uploadDeadlineState } from '../../shared/ro/working-days';

/** Romania's public holidays as published for each year (Codul muncii art. 139; the government's yearly lists). */
const KNOWN: Record<number, string[]> = {
  2022: ['01-01', '01-02', '01-24', '04-22', '04-24', '04-25', '05-01', '06-01', '06-12', '06-13', '08-15', '11-30', '12-01', '12-25', '12-26'],
  2023: ['01-01', '01-02', '01-24', '04-14', '04-16', '04-17', '05-01', '06-01', '06-04', '06-05', '08-15', '11-30', '12-01', '12-25', '12-26'],
  2024: ['01-01', '01-02', '01-06', '01-07', '01-24', '05-01', '05-03', '05-05', '05-06', '06-01', '06-23', '06-24', '08-15', '11-30', '12-01', '12-25', '12-26'],
  2025: ['01-01', '01-02', '01-06', '01-07', '01-24', '04-18', '04-20', '04-21', '05-01', '06-01', '06-08', '06-09', '08-15', '11-30', '12-01', '12-25', '12-26'],
  2026: ['01-01', '01-02', '01-06', '01-07', '01-24', '04-10', '04-12', '04-13', '05-01', '05-31', '06-01', '08-15', '11-30', '12-01', '12-25', '12-26'],
};

describe("ANAF's clock", () => {
  it('computes Orthodox Easter', () => {
    expect([2017, 2020, 2021, 2022, 2023, 2024, 2025, 2026, 2027, 2028].map(orthodoxEaster)).toEqual([
      '2017-04-16', '2020-04-19', '2021-05-02', '2022-04-24', '2023-04-16', '2024-05-05', '2025-04-20', '2026-04-12', '2027-05-02', '2028-04-16',
    ]);
  });

  it.each(Object.entries(KNOWN))('knows the public holidays of %s', (year, days) => {
    expect(romanianPublicHolidays(Number(year))).toEqual(days.map((d) => `${year}-${d}`).sort());
  });

  it('counts 5 working days from the issue date, over weekends and holidays', () => {
    expect(efacturaUploadDeadline('2026-11-16')).toBe('2026-11-23'); // Monday -> next Monday
    expect(efacturaUploadDeadline('2026-11-24')).toBe('2026-12-03'); // 30 Nov and 1 Dec are holidays
    expect(efacturaUploadDeadline('2026-04-08')).toBe('2026-04-17'); // Good Friday 10 and Easter Monday 13 April
    expect(efacturaUploadDeadline('2024-12-23')).toBe('2025-01-03'); // Christmas, New Year
    expect(efacturaUploadDeadline('2025-01-03')).toBe('2025-01-14'); // Boboteaza and Sf. Ioan
    expect(isRomanianWorkingDay('2026-06-01')).toBe(false);
    expect(addWorkingDays('2026-05-29', 1)).toBe('2026-06-02');
  });

  it('says how urgent an unsent invoice is', () => {
    expect(uploadDeadlineState('2026-11-16', '2026-11-16')).toEqual({ deadline: '2026-11-23', state: 'ok' });
    expect(uploadDeadlineState('2026-11-16', '2026-11-19')).toEqual({ deadline: '2026-11-23', state: 'soon' });
    expect(uploadDeadlineState('2026-11-16', '2026-11-23')).toEqual({ deadline: '2026-11-23', state: 'today' });
    expect(uploadDeadlineState('2026-11-16', '2026-11-24')).toEqual({ deadline: '2026-11-23', state: 'overdue' });
  });
});
