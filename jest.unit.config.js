/** The fast lane: every test that needs no service (no Kafka, PostgreSQL or control plane), in parallel. */
const base = require('./jest.config.js');
module.exports = {
  ...base,
  globalSetup: undefined,
  globalTeardown: undefined,
  testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.test\\.ts$'],
  reporters: ['default'],
};
