import { describe, expect, it } from 'vitest';
import { bucharestSectorCode } from '../../shared/efactura/document';

describe('bucharestSectorCode', () => {
  it.each([
    ['Sector 3', 'SECTOR3'],
    ['sectorul 4', 'SECTOR4'],
    ['București, sector 6', 'SECTOR6'],
    // As ANAF's own company register writes it (the first-run lookup copies it).
    ['Mun. Bucureşti, Sect. 1', 'SECTOR1'],
    ['MUN. BUCUREŞTI, SECT. 2, STR. EXEMPLU, NR.1', 'SECTOR2'],
    ['Sect 5', 'SECTOR5'],
  ])('%s names %s', (text, code) => {
    expect(bucharestSectorCode(text)).toBe(code);
  });

  it.each(['București', 'Sector 7', 'Sector 12', 'Secția 2', 'Str. Sectorului 3A'])('%s names no sector', (text) => {
    expect(bucharestSectorCode(text)).toBeNull();
  });
});
