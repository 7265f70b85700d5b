#!/usr/bin/env node
// Checks the Node.js version first (bin/node-check.js exits 2 with one line on an older one), then
// runs the compiled CLI (dist/) when built, else the TypeScript sources through tsx.
// CommonJS (bin/package.json) that any Node parses: the ES modules load only after the check.
'use strict';

require('./node-check.js');
require('./launch.js');
