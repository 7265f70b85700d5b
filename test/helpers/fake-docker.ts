// The fake Docker Engine API lives with the simulated cluster now; kept here for the tests that import it.
export * from '../../src/sim/fake-docker.js';
