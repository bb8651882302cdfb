// The HTTP API's reads of the orchestrator's tables live in the request store; the API imports them from here.
export {
  listRequests,
  getRequest,
  requestPhase,
  SUBMITTED,
  type RequestSummary,
  type TaskSummary,
  type TokenTotals,
} from './request-store';
