import { ConformanceError } from '../../errors.js';
import type { Command } from '../command.js';

/** `conformance cleanup`: not built yet. */
export const cleanupCommand: Command = async () => {
  throw new ConformanceError('CONF_SETTING_INVALID', '"cleanup" is not available in this version');
};
