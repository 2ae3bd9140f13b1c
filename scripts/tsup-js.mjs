#!/usr/bin/env node
// A package's JavaScript build: its own tsup.config.ts without the declaration step, the `.d.ts`
// files left in place. Turbo's `build:js` task; the declarations come from the one TypeScript pass
// (scripts/typecheck.mjs, turbo's `//#types`), so tests, which need only the JavaScript of the
// packages they import, never wait for TypeScript (turbo.json).
import { build } from 'tsup';

await build({ dts: false, clean: ['!**/*.d.{ts,cts,mts}'] });
