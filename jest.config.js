/** One jest run for the whole workspace; integration tests share the services started in globalSetup. */
module.exports = {
  // Node's environment; files marked @farm-kubernetes wait for the cluster the global set-up starts in the background.
  testEnvironment: '<rootDir>/scripts/local-services/jest-kubernetes-environment.ts',
  testSequencer: '<rootDir>/scripts/local-services/jest-sequencer.js',
  roots: ['<rootDir>/apps', '<rootDir>/clients', '<rootDir>/proto', '<rootDir>/scripts'],
  testMatch: ['**/src/**/*.test.ts', '**/testing/**/*.test.ts', '**/scripts/**/*.test.ts'],
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  globalSetup: '<rootDir>/scripts/local-services/jest-global-setup.ts',
  globalTeardown: '<rootDir>/scripts/local-services/jest-global-teardown.ts',
  testTimeout: 180000,
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
};
