import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: submission creation is moved from a Lambda proxy integration to a non-proxy
 * integration so that API Gateway can validate and log the request first. The request mapping
 * template builds the event by hand:
 *
 *   { "queryStringParameters": { "workspace_id": "$input.params('workspace_id')" },
 *     "body": $input.json('$') }
 *
 * In VTL, $input.params() of a parameter the client did not send is the empty string, so the
 * function can no longer tell "not sent" from "sent empty": an omitted workspace query parameter
 * arrives as "" and the handler's existing check answers 422 invalid_request_error (param
 * workspace_id) instead of the 400 missing_param it gives a missing parameter. Every client that
 * sends the parameter is unaffected, and the error is still a well-formed 4xx naming the right
 * parameter, so the integration tests that only check "4xx with param workspace_id" stay green.
 */
export default defineMutant({
  description:
    'The gateway mapping template for submission creation turns an omitted workspace query parameter into an empty string, so leaving it out yields 422 instead of 400 missing_param.',
  breaks: { 'ERR-3': 'fail' },
  collateral: ['ERR-7'],
  modify: (reference) => {
    const param = reference.state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const query = req.query as Record<string, unknown>;
      // "$input.params('workspace_id')": a parameter not sent renders as "".
      if (query[param] === undefined) query[param] = '';
    });
  },
});
