import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the OpenAPI document imported into AWS API Gateway marks the submission
 * creation's workspace query parameter as required, and the team switches on the request
 * validator "Validate query string parameters and headers" for that method. A request without the
 * parameter never reaches the service: API Gateway answers it itself (after the authorizer) with
 * its default BAD_REQUEST_PARAMETERS gateway response, `{"message": "Missing required request
 * parameters: [workspace_id]"}`. The status is the right 400, but nobody mapped that gateway
 * response's template to the API's error envelope. Every other submission error still comes from
 * the service.
 */
export default defineMutant({
  description:
    'Submission creation without the required workspace query parameter is answered 400 by the gateway\'s request validator with {"message": "Missing required request parameters: [workspace_id]"} instead of the error envelope with code missing_param.',
  breaks: { 'ERR-1': 'fail', 'ERR-7': 'warn' },
  collateral: [],
  provokedBy: ['SUB'],
  modify: (reference) => {
    const { submissions } = reference.state.profile;
    if (submissions.workspaceQueryParamRequired === false) return;
    const param = submissions.workspaceQueryParam ?? 'workspace_id';
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      if ((req.query as Record<string, unknown>)[param] !== undefined) return;
      reply.header('x-amzn-errortype', 'BadRequestException');
      return reply
        .code(400)
        .type('application/json')
        .send(JSON.stringify({ message: `Missing required request parameters: [${param}]` }));
    });
  },
});
