import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const outDir = path.resolve(import.meta.dirname, 'dist/app');

/** Lists the built files in `files.json`, the only files the handler serves. */
function fileList(): Plugin {
  return {
    name: 'explorer-file-list',
    writeBundle() {
      const files = [
        ...readdirSync(outDir).filter((f) => f !== 'index.html' && f !== 'files.json'),
        ...readdirSync(path.join(outDir, 'assets')).map((f) => `assets/${f}`),
      ].filter((f) => f !== 'assets');
      writeFileSync(path.join(outDir, 'files.json'), `${JSON.stringify(files)}\n`);
    },
  };
}

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'app'),
  base: './',
  build: { outDir, emptyOutDir: true, sourcemap: false, target: 'es2022' },
  plugins: [fileList()],
});
