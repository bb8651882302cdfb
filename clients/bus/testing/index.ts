export * from './bus-scenarios';
export * from './test-buses';
