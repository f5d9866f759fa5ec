/**
 * Requests sent beside each other, their answers given in the order they were asked: a check judges
 * them as it would had it sent them one after another (its first finding is the same on every run),
 * while the target answers them at once. On a failure every request has ended first, so that none
 * outlives its check, and the first failure in that order is thrown.
 */
export async function allInOrder<T>(pending: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
