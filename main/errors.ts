import type { IpcError, IpcErrorType } from '../shared/ipc/contract';

/**
 * An error the user may see: it crosses IPC as `{ type, code, message, fields? }`. Anything else
 * thrown in main becomes a bare `internal_error` at the IPC boundary.
 */
export class AppError extends Error {
  constructor(
    readonly type: IpcErrorType,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toIpc(): IpcError {
    return { type: this.type, code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) };
  }
}

export const notFound = (what: string) => new AppError('not_found', 'not_found', `${what} not found`);

export const invalidState = (message: string) => new AppError('conflict', 'invalid_state', message);

export const invalidInput = (fields: Record<string, string>, message = 'Invalid input') =>
  new AppError('validation_error', 'invalid_payload', message, fields);
