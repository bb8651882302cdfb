export * from './bus';
export * from './topics';
export * from './codec';
export * from './delivery';
export { InProcessBus } from './in-process-bus';
export { KafkaBus, type KafkaBusConfig } from './kafka-bus';
export { ParentProcessBus, isForwardedPublish, type ForwardedPublish } from './child-process-bus';
export { connectKafkaFromEnv } from './connect';
export { busMetrics } from './metrics';
