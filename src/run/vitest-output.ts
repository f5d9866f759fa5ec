import { Writable } from 'node:stream';

/**
 * What vitest itself prints, passed on line by line to the run's output (which guards against
 * secrets), less the JUnit reporter's "JUNIT report written to" notice: the run's last line
 * already names every report it wrote, JUnit included.
 */
export function vitestOutput(write: (line: string) => void): Writable {
  let pending = '';
  const emit = (line: string) => {
    if (!/^JUNIT report written to /.test(line)) write(line);
  };
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) emit(line);
      done();
    },
    final(done) {
      if (pending !== '') emit(pending);
      pending = '';
      done();
    },
  });
}
