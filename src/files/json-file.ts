import { readFileSync } from 'node:fs';

/** Why a JSON file could not be had: the system's error code where it could not be read, and the first line of the message. */
export interface JsonFileProblem {
  readonly errno: string | undefined;
  readonly message: string;
}

/**
 * A JSON file a user named (a fleet, a report, a manifest), parsed. A file that cannot be read or
 * is not JSON is the caller's one-line error, `problem` says which.
 */
export function readJsonFile(file: string, problem: (cause: JsonFileProblem) => Error): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw problem({ errno: (error as NodeJS.ErrnoException).code, message: (error as Error).message.split('\n')[0]! });
  }
}
