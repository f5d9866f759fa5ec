import { defineMutant } from '../../mutant.js';
import { beforeItem } from '../../support.js';
import { notFound } from '../../../reference/errors.js';

/*
 * How this happens: to take the picklist endpoint off the database, the team points it at the
 * in-memory lookup the form builder already keeps, a map warmed by walking every field and loading
 * the picklist its `picklist_id` names. The picklist list still queries the table, so a picklist
 * that no field uses yet is listed, but it is never in the warmed map and its retrieval answers 404.
 * Every picklist in the demo account is attached to a field, so nobody sees it.
 */
export default defineMutant({
  description:
    "Retrieving a picklist by id is served from a lookup map warmed from the fields' picklist_id references, so a listed picklist that no field uses answers 404.",
  breaks: { 'RES-5': 'fail' },
  collateral: ['RES-7'],
  modify: (reference) => {
    /** Per account: the picklist ids some field references (the warmed map's keys). */
    const warmed = new Map<string, ReadonlySet<string>>();
    for (const method of ['GET', 'HEAD']) {
      beforeItem(reference, 'picklist', method, async (id, req, reply) => {
        if (id.includes('/')) return;
        let attached = warmed.get(req.account.id);
        if (!attached) {
          attached = new Set(req.account.data.fields.flatMap((field) => (field.picklist_id === null ? [] : [field.picklist_id])));
          warmed.set(req.account.id, attached);
        }
        if (!attached.has(id)) return notFound(reply, 'Picklist');
      });
    }
  },
});
