import { messageFor, type MessageCode } from './messages';
import type { Locale } from './locale';
import { pickLanguage } from './zod-fields';

export type ErrorType =
  | 'api_error'
  | 'authentication_error'
  | 'invalid_request_error'
  | 'rate_limit_error'
  | 'permission_error'
  | 'validation_error'
  | 'configuration_error';

export interface ApiErrorOptions {
  param?: string;
  /**
   * member name -> message, on validation errors: already localized, or `English|Română` (the
   * caller's language is picked when the reply is written).
   */
  fields?: Record<string, string>;
  /** values for the `{name}` placeholders of the message. */
  vars?: Record<string, string | number>;
  headers?: Record<string, string>;
}

/**
 * Every error a client can see. Anything thrown that is not an ApiError becomes a bare `api_error`
 * with no detail: stack traces and SQL stay in the log.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: MessageCode,
    readonly options: ApiErrorOptions = {},
  ) {
    super(code);
    this.name = 'ApiError';
  }

  toBody(locale: Locale, docBase: string) {
    const { param, vars } = this.options;
    return {
      // `{param}` in a message names the offending member: `param` fills it unless `vars` says otherwise.
      message: messageFor(this.code, locale, param === undefined ? vars : { param, ...vars }),
      type: this.type,
      code: this.code,
      ...(this.options.param !== undefined ? { param: this.options.param } : {}),
      doc_url: `${docBase}#${this.code}`,
      status: this.status,
      ...(this.options.fields
        ? { fields: Object.fromEntries(Object.entries(this.options.fields).map(([k, v]) => [k, pickLanguage(v, locale)])) }
        : {}),
    };
  }
}

export const notFound = (param = 'id', code: MessageCode = 'resource_missing') =>
  new ApiError(404, 'invalid_request_error', code, { param });

export const validationFailed = (fields: Record<string, string>, status = 422) =>
  new ApiError(status, 'validation_error', 'validation_error', { fields, param: Object.keys(fields)[0] });

export const conflict = (code: MessageCode, param?: string) =>
  new ApiError(409, 'invalid_request_error', code, param ? { param } : {});

export const badRequest = (code: MessageCode, param?: string) =>
  new ApiError(400, 'invalid_request_error', code, param ? { param } : {});

export const forbidden = (code: MessageCode = 'forbidden', param?: string) =>
  new ApiError(403, 'permission_error', code, param ? { param } : {});
