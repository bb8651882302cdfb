export * from './bus-scenarios';
