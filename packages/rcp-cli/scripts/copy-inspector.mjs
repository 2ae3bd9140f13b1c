// Copies the built inspector page (apps/inspector, built first by turbo) into dist/inspector,
// where `rcp inspect` serves it from: the page ships inside this package.
import { cpSync, existsSync } from 'node:fs';

const from = new URL('../../../apps/inspector/dist/', import.meta.url);
if (!existsSync(from)) throw new Error('apps/inspector is not built: run the build from the repository root');
cpSync(from, new URL('../dist/inspector/', import.meta.url), { recursive: true });
console.log('copied the inspector page into dist/inspector');
