#!/usr/bin/env node
import { importSource } from './compiled.mjs';

await importSource('reference/main.ts');
