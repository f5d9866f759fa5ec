import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/** The count query is built without the filters: items are filtered, total_count is not. */
export default defineMutant({
  description: 'sends the unfiltered number of submissions as total_count of a filtered submission list',
  breaks: { 'SUB-4': 'fail' },
  modify: (reference) => {
    const list = reference.state.profile.paths.submissionList;
    rewriteJson(reference, (body, req) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !isEnvelope(body)) return body;
      return { ...body, total_count: req.account.submissions.length };
    });
  },
});
