/** The fast lane: every test that needs no service (no Kafka, PostgreSQL or control plane), in parallel. */
const os = require('node:os');
const base = require('./jest.config.js');
module.exports = {
  ...base,
  globalSetup: undefined,
  globalTeardown: undefined,
  testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.test\\.ts$'],
  // A worker per core, at least two (jest's default leaves one core idle): much of this lane waits on the
  // processes it starts (sandboxed checks, agents, git), so a small machine gains from a second worker too.
  maxWorkers: Math.max(2, os.availableParallelism?.() ?? os.cpus().length),
  reporters: ['default', ['<rootDir>/scripts/jest-summary-reporter.js', { lane: 'unit' }]],
};
