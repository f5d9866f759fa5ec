/** Resolves after `ms` milliseconds: the one wait every module uses. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
