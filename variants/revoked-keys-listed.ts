// Deleted keys revoked at once and kept in the key list for 30 days, marked revoked (GitLab's
// personal access tokens), as blind variant batch 8 wrote it (variants/batches/8/p-revoked-keys-listed.ts,
// which says where it happens and why it conforms): kept in the tolerance matrix, the class it
// lacked, a SHOULD departed from on purpose (KEY-6, declared), which the explorer's model once
// took for a disagreement that ended its exploration of the MUSTs (docs/judging.md).
export { default } from './batches/8/p-revoked-keys-listed.js';
