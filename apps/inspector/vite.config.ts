import { defineConfig } from 'vite';

// Static files, relative asset URLs (the CLI serves them from its own root), no source maps.
export default defineConfig({ base: './', build: { outDir: 'dist', emptyOutDir: true, sourcemap: false } });
