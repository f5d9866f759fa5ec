import { readFileSync } from 'node:fs';

/**
 * How busy the machine was while a benchmark ran, from Linux's pressure stall information: the
 * share of the time some runnable task waited for a CPU. A shared machine's other tenants move a
 * local run by a tenth or more from one hour to the next (docs/running.md); printed beside the
 * figures, this tells a slow hour from a slower suite. Null where the kernel does not say
 * (another system, or a kernel without PSI).
 */
export function cpuPressure(): { readonly end: () => string | null } {
  const start = stalledMicroseconds();
  const startedAt = performance.now();
  return {
    end: () => {
      const now = stalledMicroseconds();
      const elapsedUs = (performance.now() - startedAt) * 1000;
      if (start === null || now === null || elapsedUs <= 0) return null;
      const share = Math.min(1, (now - start) / elapsedUs);
      return `CPU pressure ${(share * 100).toFixed(0)} % (some task waited for a CPU that share of the time: above some 10 %, the machine was busy and the figures are slow)`;
    },
  };
}

/** The kernel's running total of microseconds in which some task waited for a CPU. */
function stalledMicroseconds(): number | null {
  try {
    const line = readFileSync('/proc/pressure/cpu', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('some '));
    const total = line?.match(/total=(\d+)/)?.[1];
    return total === undefined ? null : Number(total);
  } catch {
    return null;
  }
}
