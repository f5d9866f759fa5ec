import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file whole or not at all: the text goes to a temporary file beside it, which then
 * replaces it by a rename (atomic within one file system). A CI job cancelled mid-write, or a
 * reader (an artifact upload, a test report parser) looking at the same moment, never sees a
 * half-written or empty file: only the previous version or the new one.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
