import { defineMutant } from '../../mutant.js';
import { rewriteJson } from '../../support.js';

/*
 * How this happens: list pages are written by a hand-tuned paging serializer, but single-resource
 * responses go through the framework's default JSON serializer, which the team configured with
 * "omit null members" (Jackson's NON_NULL, pydantic's exclude_none) to trim payload size. Every
 * non-null field still appears, so the retrieval looks right until an item whose nullable field is
 * null, such as a governance model without a description, loses that member on retrieval only.
 */
export default defineMutant({
  description:
    'Single-resource retrievals drop members whose value is null: a governance model with a null description (or a field with no picklist) is retrieved without that member, though its list item carries it.',
  breaks: { 'RES-7': 'warn' },
  collateral: ['RES-2', 'RES-4', 'RES-5'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const urls = new Set(
      [paths.workspace, paths.governanceModel, paths.record, paths.taxonomy, paths.field, paths.picklist]
        .filter((p): p is string => typeof p === 'string')
        .map((p) => p.replace('{id}', ':id')),
    );
    rewriteJson(reference, (body, req, reply) => {
      if (reply.statusCode !== 200 || !urls.has(req.routeOptions.url ?? '')) return body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
      return Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([, value]) => value !== null));
    });
  },
});
