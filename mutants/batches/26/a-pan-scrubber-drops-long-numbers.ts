import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: a PCI DSS review found card numbers in the access logs (a customer had pasted
 * one into a query string). The fix was a scrubber mounted on the HTTP server itself, ahead of the
 * framework, so that every downstream consumer of the URL (access log, tracing spans, the error
 * reporter) sees it clean: it rewrites `req.url` in place and removes any query parameter whose
 * value looks like a card number, a run of 13 to 19 digits (the Luhn check was left "for later",
 * since it only reduces false positives). The router reads the same rewritten URL, so a `page` or
 * `limit` of 13 to 19 digits silently disappears and the list answers with the default instead of
 * rejecting the value, while 12 or 20 digits are still refused as before.
 */
const CARD_NUMBER = /^\d{13,19}$/;

export default defineMutant({
  description:
    'A card-number scrubber rewrites the request URL before routing and drops query parameters of 13 to 19 digits, so page or limit values such as 9007199254740993 are read as the defaults (200) instead of being rejected with 422.',
  breaks: { 'PAG-4': 'fail', 'PAG-10': 'warn' },
  collateral: ['PAG-9', 'PAG-3'],
  modify: (reference) => {
    beforeReference(reference, (req) => {
      const url = req.url;
      if (url === undefined) return;
      const at = url.indexOf('?');
      if (at < 0) return;
      const parts = url.slice(at + 1).split('&');
      const kept = parts.filter((part) => !CARD_NUMBER.test(part.slice(part.indexOf('=') + 1)));
      if (kept.length === parts.length) return;
      req.url = kept.length > 0 ? `${url.slice(0, at)}?${kept.join('&')}` : url.slice(0, at);
    });
  },
});
