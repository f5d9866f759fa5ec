import type { FastifyReply } from 'fastify';

/** The types of the document's Errors table, plus the two it names without a status. */
export type ErrorType =
  'invalid_request_error' | 'authentication_error' | 'authorization_error' | 'not_found_error' | 'rate_limit_error' | 'plan_limit_exceeded' | 'api_error';

export interface ApiErrorBody {
  error: { type: ErrorType; code: string | null; message: string; param: string | null; path?: string | null };
}

export interface ErrorDetails {
  code?: string | null;
  param?: string | null;
  path?: string | null;
}

/** Builds the common error envelope (API document, Errors). */
export function errorBody(type: ErrorType, message: string, details: ErrorDetails = {}): ApiErrorBody {
  return { error: { type, code: details.code ?? null, message, param: details.param ?? null, path: details.path ?? null } };
}

export function sendError(reply: FastifyReply, status: number, type: ErrorType, message: string, details: ErrorDetails = {}): FastifyReply {
  return reply.code(status).send(errorBody(type, message, details));
}

/** 400: a genuinely missing required parameter (Errors, rule 1). */
export function missingParam(reply: FastifyReply, param: string, path: string | null = null): FastifyReply {
  return sendError(reply, 400, 'invalid_request_error', `Missing required parameter: ${param}.`, { code: 'missing_param', param, path });
}

/** 422: present but invalid. */
export function invalidParam(reply: FastifyReply, param: string, message: string, path: string | null = null, code = 'invalid_value'): FastifyReply {
  return sendError(reply, 422, 'invalid_request_error', message, { code, param, path });
}

export function notFound(reply: FastifyReply, what = 'Resource'): FastifyReply {
  return sendError(reply, 404, 'not_found_error', `${what} not found.`);
}
