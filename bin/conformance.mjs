#!/usr/bin/env node
// The CLI: its TypeScript sources compiled ahead of time, or run through tsx (bin/compiled.mjs), so
// that a clone works with `npx conformance` and no build step.
import { importSource } from './compiled.mjs';

await importSource('bin/cli.ts');
