#!/usr/bin/env node
// `kubectl pod-doctor <args>`: kubectl runs the executable named kubectl-<plugin name, "-" → "_">
// found on PATH with the arguments after the plugin's name, and its exit code is kubectl's. So
// this is the pod-doctor CLI itself, in this process: the same arguments, output and exit codes.
// CommonJS (bin/package.json) that any Node parses: the Node.js check runs before anything else.
'use strict';

require('./node-check.js');

// The CLI's entry runs only when it is the program (tests import it), which it tells from argv[1]
// naming bin/pod-doctor; here argv[1] names this file (or kubectl-pod_doctor, npm's link to it).
process.argv[1] = require('node:path').join(__dirname, 'pod-doctor.js');
require('./launch.js');
