/**
 * The services lane: the `*.integration.test.ts` files, one at a time, with the services the global set-up
 * starts (or those KAFKA_BROKERS / DATABASE_URL / KUBECONFIG point at). With the unit lane it runs every test once.
 */
const base = require('./jest.config.js');
module.exports = {
  ...base,
  testMatch: base.testMatch.map((pattern) => pattern.replace(/\*\.test\.ts$/, '*.integration.test.ts')),
  reporters: ['default', ['<rootDir>/scripts/jest-summary-reporter.js', { lane: 'integration' }]],
  // A test that failed before it could close its clients (a Kafka consumer, a server) must not hold the lane open
  // for ever once the run, and the global teardown that stops the services, are over.
  forceExit: true,
};
