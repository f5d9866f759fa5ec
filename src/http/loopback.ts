/** Whether the base URL names this machine: no transit time, and the same clock. */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}
