import htmlFourHundredPages from '../html-400-pages.js';
import invalidValue400 from '../invalid-value-400.js';
import missingParam422 from '../missing-param-422.js';
import missingParamCodeAbsent from '../missing-param-code-absent.js';
import notFoundWithCode from '../not-found-with-code.js';
import readConflictError from '../read-conflict-error.js';
import undocumentedErrorType from '../undocumented-error-type.js';
import unknownPathFramework404 from '../unknown-path-framework-404.js';
import validationParamNull from '../validation-param-null.js';

/** Mutants of the ERR family. */
export const ERROR_MUTANTS = {
  'missing-param-422': missingParam422,
  'invalid-value-400': invalidValue400,
  'validation-param-null': validationParamNull,
  'not-found-with-code': notFoundWithCode,
  'html-400-pages': htmlFourHundredPages,
  'missing-param-code-absent': missingParamCodeAbsent,
  'unknown-path-framework-404': unknownPathFramework404,
  'read-conflict-error': readConflictError,
  'undocumented-error-type': undocumentedErrorType,
} as const;
