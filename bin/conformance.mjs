#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so that a clone works with `npx conformance` and no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
