import { createHash } from 'node:crypto';
import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf, rewriteJson } from '../../support.js';

/** The flag's key and rollout: the share of accounts, by hash bucket of the account id, that get the beta. */
const FLAG = 'workspace-sharing-beta';
const ROLLOUT_PERCENT = 40;

/** The account's bucket in 0..100 for the flag, the way common flag services compute it (sha1 of flag and id). */
function bucket(accountId: string): number {
  const hex = createHash('sha1').update(`${FLAG}.${accountId}`).digest('hex').slice(0, 15);
  return (parseInt(hex, 16) / 0xfffffffffffffff) * 100;
}

/*
 * How this happens: workspace sharing between accounts (an agency opens its clients' workspaces)
 * is in beta, rolled out by the flag service to 40 % of accounts, bucketed by a hash of the account
 * id. For accounts in the beta, retrieving a workspace by id that the account does not own falls
 * back to "workspaces shared with me". The sharing ACL table is not written yet, so the fallback's
 * permission check was stubbed to allow "until the grants land", on the reasoning that only beta
 * accounts reach it. Any workspace id of any account now opens for an account in the cohort; lists
 * are untouched (they still read the account's own workspaces), so nothing looks wrong in the app.
 */
export default defineMutant({
  description:
    "For accounts in the workspace-sharing beta (40 % of accounts, by hash of the account id), retrieving another account's workspace by its id returns it (200) instead of 404.",
  breaks: { 'AUTH-6': 'fail' },
  modify: (reference) => {
    const { store, profile } = reference.state;
    const prefix = itemPrefix(profile.paths.workspace);
    if (!prefix) return;
    const cohort = new Map<string, boolean>();
    const inBeta = (accountId: string) => {
      let member = cohort.get(accountId);
      if (member === undefined) cohort.set(accountId, (member = bucket(accountId) < ROLLOUT_PERCENT));
      return member;
    };
    rewriteJson(reference, (body, req, reply) => {
      if (req.method !== 'GET' || reply.statusCode !== 404 || !req.account || !inBeta(req.account.id)) return body;
      const path = pathOf(req);
      if (!path.startsWith(prefix) || path.length === prefix.length) return body;
      let id: string;
      try {
        id = decodeURIComponent(path.slice(prefix.length));
      } catch {
        return body;
      }
      // "Shared with me": any other account's workspace, the grant check stubbed to allow.
      for (const account of store.accounts) {
        if (account === req.account) continue;
        const shared = account.data.workspaces.find((w) => w.id === id);
        if (shared) {
          reply.code(200);
          return shared;
        }
      }
      return body;
    });
  },
});
