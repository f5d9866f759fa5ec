import { schemaErrors } from '../schemas.js';

/** Every type the document names (Errors: the table's seven, and two named in rule 3). */
export const DOCUMENTED_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'authorization_error',
  'not_found_error',
  'rate_limit_error',
  'plan_limit_exceeded',
  'api_error',
  'account_locked',
  'conflict_error',
] as const;

/** The types a status of the document's table allows (ERR-2); statuses not listed are not judged. */
export const TYPES_BY_STATUS: Readonly<Record<number, readonly string[]>> = {
  401: ['authentication_error'],
  403: ['authorization_error'],
  404: ['not_found_error'],
  422: ['invalid_request_error', 'plan_limit_exceeded'],
  429: ['rate_limit_error'],
  500: ['api_error'],
};

/** Types that only requests changing data may answer (Errors, rule 3). */
export const WRITE_ONLY_TYPES = ['plan_limit_exceeded', 'account_locked', 'conflict_error'] as const;

export interface ErrorObject {
  type: string;
  code: string | null;
  message: string;
  param: string | null;
  path?: string | null;
}

export function isErrorEnvelope(body: unknown): body is { error: ErrorObject } {
  return schemaErrors('error', body).length === 0 || schemaErrors('error-429', body).length === 0;
}

/** The `error` member of a body, when it has one with a string type. */
export function errorOf(body: unknown): ErrorObject | null {
  const error = (body as { error?: unknown } | null | undefined)?.error;
  if (typeof error !== 'object' || error === null || typeof (error as { type?: unknown }).type !== 'string') return null;
  return error as ErrorObject;
}

/**
 * Looks for the string `value` as the value of any member at any depth, or an element of an
 * array member (AUTH-7: the 401 for a missing or malformed header has a shape the document does
 * not show, so `{"type": …}`, `{"error": …}` and `{"code": …}` all name the type).
 */
export function hasValueAnywhere(body: unknown, value: string): boolean {
  if (Array.isArray(body)) return body.some((item) => item === value || hasValueAnywhere(item, value));
  if (typeof body !== 'object' || body === null) return false;
  return Object.values(body).some((member) => member === value || hasValueAnywhere(member, value));
}
