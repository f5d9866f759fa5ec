import type { Settings } from '../config/settings.js';
import { useClock } from '../clock.js';
import type { Output } from '../output.js';
import type { RunParts } from './parts.js';
import { dryRunStage } from './stages/dry-run.js';
import { executionStage } from './stages/execution.js';
import { keysStage } from './stages/keys.js';
import { openStage } from './stages/open.js';
import { planStage } from './stages/plan.js';
import { preflightStage } from './stages/preflight.js';
import { publishStage } from './stages/publish.js';
import { sliceSettings } from './slices.js';
import { settingsStage, startRun } from './stages/settings.js';
import { teardownStage } from './stages/teardown.js';

/**
 * Runs the whole suite once and returns the exit status (run interface, Verdict and exit status),
 * with the reporters and the embedded reference its composition root hands it (`parts`).
 *
 * The run is a sequence of stages (`stages/`), each taking the one before's output: the settings
 * read, the target opened, its preflight, the plan, the keys, the checks, the teardown, the
 * report. Whatever ends it early (a signal, a dead target, a wrong setting, the preflight's
 * refusal, a fault of the suite) is handled in one place beside it, `stops.ts`; what the stages share
 * lives beside it too (`teardown.ts`, `estimate.ts`), so that `stages/` holds the stages alone, in a line
 * (test/import-rules.test.ts: no file of src/run/ reaches back to one before it).
 */
export async function run(settings: Settings, io: Output, parts: RunParts): Promise<number> {
  useClock(parts.clock);
  // Each stage is handed the part of the settings it reads, and no more (`slices.ts`).
  const slices = sliceSettings(settings);
  const start = startRun(slices.start, slices.stops, io, parts);
  const { stops } = start;
  try {
    const { target, requests, plan, teardown } = slices;
    const opened = await openStage(settingsStage(start, slices.start), { target, requests, plan, teardown });
    const planned = planStage(await preflightStage(opened, slices.requests), slices.plan);
    if (slices.plan.dryRun) return dryRunStage(planned);
    const executed = await executionStage(await keysStage(planned), { ...slices.requests, reportDir: slices.report.reportDir });
    if (executed.stop) return await stops.stopped(executed.stop);
    return publishStage(await teardownStage(executed), slices.report);
  } catch (error) {
    return await stops.failed(error);
  } finally {
    await stops.close();
  }
}
