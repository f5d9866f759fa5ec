import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

/** The profile of the reference server and of the embedded run. */
export const REFERENCE_PROFILE_FILE = join(PACKAGE_ROOT, 'profiles/reference.json');

/** The profile that knows only what the document states: a target at a base URL without `--profile`. */
export const DOCUMENT_PROFILE_FILE = join(PACKAGE_ROOT, 'profiles/document.json');
