/** Where a command writes its lines: the console, or a test's buffer. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** An output that passes its lines on to whichever output it was last pointed `to`. */
export interface RelayedOutput extends Output {
  to(next: Output): void;
}

export function relayOutput(first: Output): RelayedOutput {
  let current = first;
  return {
    out: (line) => current.out(line),
    err: (line) => current.err(line),
    to: (next) => void (current = next),
  };
}
