// Loaded only once bin/node-check.js has passed, so it may use what Node 24 has.
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const root = join(__dirname, '..');
const compiled = join(root, 'dist/bin/pod-doctor.js');

async function launch() {
  if (existsSync(compiled)) {
    await import(pathToFileURL(compiled).href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src/bin/pod-doctor.ts')).href);
}

launch().catch((err) => {
  process.stderr.write(`pod-doctor: cannot start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
