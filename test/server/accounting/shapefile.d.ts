// shapefile ships no types; the one function the tests use, as its README documents it.
declare module 'shapefile' {
  interface DbfSource {
    read(): Promise<{ done: boolean; value: Record<string, unknown> }>;
  }
  export function openDbf(source: string | ArrayBuffer | Uint8Array, options?: { encoding?: string }): Promise<DbfSource>;
}
