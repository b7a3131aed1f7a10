/** Channel names of the catalogue and clients import (no zod here: the preload imports the names only). */
export const IMPORT_CHANNELS = ['imports.upload', 'imports.preview', 'imports.commit'] as const;
