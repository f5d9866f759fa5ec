import { ConformanceError } from '../../errors.js';
import type { Command } from '../command.js';

/** `conformance diff`: not built yet. */
export const diffCommand: Command = async () => {
  throw new ConformanceError('CONF_SETTING_INVALID', '"diff" is not available in this version');
};
