import { InProcessBus } from './in-process-bus';
import { defineBusScenarios } from './bus-scenarios';

defineBusScenarios('in-process bus', () => new InProcessBus());
