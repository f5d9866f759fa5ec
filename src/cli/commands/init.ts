import { ConformanceError } from '../../errors.js';
import type { Command } from '../command.js';

/** `conformance init`: not built yet. */
export const initCommand: Command = async () => {
  throw new ConformanceError('CONF_SETTING_INVALID', '"init" is not available in this version');
};
