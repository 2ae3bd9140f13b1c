// Writes rcp-manifest.schema.json (shipped in the package) from the built TypeBox schema.
// Run by `pnpm build` after tsup; src/manifest-json-schema.test.ts proves the file is current.
import { writeFileSync } from 'node:fs';
import { manifestJsonSchema } from '../dist/json-schema.js';

const target = new URL('../rcp-manifest.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
console.log('wrote rcp-manifest.schema.json');
