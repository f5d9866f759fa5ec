import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../errors.js';
import type { ReferenceState } from '../state.js';
import { arrayCollection, route, sendPage } from './list.js';

type Id = { Params: { id: string } };
type Pick = (req: FastifyRequest) => readonly { id: string }[];

/** Workspaces, governance models, records, taxonomies, fields and picklists. */
export function resourceRoutes(app: FastifyInstance, state: ReferenceState): void {
  const { paths } = state.profile;
  const serve = (listPath: string | null, itemPath: string | null, what: string, pick: Pick) => {
    if (listPath) app.get(route(listPath), async (req, reply) => sendPage(state, req, reply, arrayCollection(pick(req))));
    if (itemPath) {
      app.get<Id>(route(itemPath), async (req, reply) => {
        const found = pick(req).find((item) => item.id === req.params.id);
        return found ? reply.send(found) : notFound(reply, what);
      });
    }
  };

  serve('/api/v1/workspaces', paths.workspace, 'Workspace', (req) => req.account.data.workspaces);
  serve('/api/v1/governance_models', paths.governanceModel, 'Governance model', (req) => req.account.data.governanceModels);
  serve(paths.taxonomies, paths.taxonomy, 'Taxonomy', (req) => req.account.data.taxonomies);
  serve(paths.fields, paths.field, 'Field', (req) => req.account.data.fields);
  serve(paths.picklists, paths.picklist, 'Picklist', (req) => req.account.data.picklists);

  // Records are computed from their index, not stored: a million cost no memory.
  app.get('/api/v1/records', async (req, reply) => {
    const records = req.account.data.records;
    return sendPage(state, req, reply, {
      total: records.count,
      slice: (start, end) => records.slice(start, end),
      sliceJson: (start, end) => records.sliceJson(start, end),
    });
  });
  if (paths.record) {
    app.get<Id>(route(paths.record), async (req, reply) => {
      const records = req.account.data.records;
      const index = records.indexOf(req.params.id);
      return index === null ? notFound(reply, 'Record') : reply.send(records.at(index));
    });
  }
}
