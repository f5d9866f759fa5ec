/** Where the document puts key creation, whatever the profile says (the run interface). */
export const KEY_CREATION_PATH = '/api/v1/api_keys';

/** A request any key of the account may make: the document's first list. */
export const PROBE_PATH = '/api/v1/workspaces';

/** The path most deployments use to delete a key, tried when the profile declares none. */
export const CONVENTIONAL_KEY_PATH = '/api/v1/api_keys/{id}';
