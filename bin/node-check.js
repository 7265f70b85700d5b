// The first thing every entry point runs: refuse an older Node.js in one line, exit code 2,
// before anything that needs Node 24 is loaded (an older Node crashes deep inside undici).
// CommonJS in ES5 on purpose (bin/package.json): any Node can parse and run this file.
'use strict';

var engines = require('../package.json').engines;

/** The major version package.json's engines.node asks for (">=24" → 24). */
function requiredMajor() {
  var m = /(\d+)/.exec(String(engines && engines.node));
  return m ? Number(m[1]) : 0;
}

/** The one line to print when `version` ("v20.11.1") is too old, else null. */
function nodeProblem(version) {
  var need = requiredMajor();
  var m = /^v?(\d+)/.exec(String(version));
  var found = m ? Number(m[1]) : 0;
  if (found >= need) return null;
  return (
    'pod-doctor needs Node.js >= ' + need + ' (found ' + version + ' at ' + process.execPath + '): install Node.js ' + need +
    ' or later (https://nodejs.org, or `nvm install ' + need + '`) and put it first on PATH'
  );
}

var problem = nodeProblem(process.version);
if (problem) {
  process.stderr.write(problem + '\n');
  process.exit(2);
}

module.exports = { nodeProblem: nodeProblem, requiredMajor: requiredMajor };
