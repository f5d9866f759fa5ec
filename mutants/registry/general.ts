import crashOnLongId from '../crash-on-long-id.js';
import frontEndHtml400 from '../front-end-html-400.js';
import htmlErrorPages from '../html-error-pages.js';
import invalidJson500 from '../invalid-json-500.js';
import textPlainJson from '../text-plain-json.js';
import versionPrefixIgnored from '../version-prefix-ignored.js';
import noContentType500 from '../no-content-type-500.js';
import largeBody500 from '../large-body-500.js';
import blankKeyName500 from '../blank-key-name-500.js';
import trailingSlash500 from '../trailing-slash-500.js';
import latin1Bodies from '../latin1-bodies.js';
import xmlWhenAccepted from '../xml-when-accepted.js';
import lastUseWriteConflict from '../last-use-write-conflict.js';

/** Mutants of the GEN family. */
export const GENERAL_MUTANTS = {
  'html-error-pages': htmlErrorPages,
  'version-prefix-ignored': versionPrefixIgnored,
  'crash-on-long-id': crashOnLongId,
  'invalid-json-500': invalidJson500,
  'text-plain-json': textPlainJson,
  'front-end-html-400': frontEndHtml400,
  'no-content-type-500': noContentType500,
  'large-body-500': largeBody500,
  'blank-key-name-500': blankKeyName500,
  'trailing-slash-500': trailingSlash500,
  'latin1-bodies': latin1Bodies,
  'xml-when-accepted': xmlWhenAccepted,
  'last-use-write-conflict': lastUseWriteConflict,
} as const;
