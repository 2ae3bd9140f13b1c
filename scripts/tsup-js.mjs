#!/usr/bin/env node
// A package's JavaScript build: its own tsup.config.ts without the declaration step, the `.d.ts`
// files of a previous build left in place. Turbo's `build:js` task; `build:types`
// (`tsup --dts-only`, the slow TypeScript part) runs after it, so tests, which need only the
// JavaScript of the packages they import, never wait for the type chain (turbo.json).
import { build } from 'tsup';

await build({ dts: false, clean: ['!**/*.d.{ts,cts,mts}'] });
