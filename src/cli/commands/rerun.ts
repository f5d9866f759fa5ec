import { ConformanceError } from '../../errors.js';
import type { Command } from '../command.js';

/** `conformance rerun`: not built yet. */
export const rerunCommand: Command = async () => {
  throw new ConformanceError('CONF_SETTING_INVALID', '"rerun" is not available in this version');
};
