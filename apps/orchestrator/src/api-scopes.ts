import type { Scope } from '@farm/access';

/**
 * The scope each route of the orchestrator's HTTP surface asks for, by `METHOD /route/template`: the one place
 * that decides it. A route missing here asks for admin, so a route added later is closed until it is listed.
 */
export const ROUTE_SCOPES: Readonly<Record<string, Scope>> = {
  'GET /v1/change-requests': 'read',
  'GET /v1/change-requests/:id': 'read',
  'GET /v1/change-requests/:id/events': 'read',
  'GET /v1/change-requests/:id/diff': 'read',
  'GET /v1/lessons': 'read',
  'GET /v1/forge': 'read',
  'GET /v1/change-requests/:id/tasks/:taskId/trajectory': 'read',
  'GET /v1/change-requests/:id/tasks/:taskId/checks': 'read',
  'GET /v1/change-requests/:id/tasks/:taskId/diff': 'read',
  'GET /v1/change-requests/:id/tasks/:taskId/events': 'read',
  'POST /v1/change-requests/:id/tasks/:taskId/resubmit': 'submit',
  'POST /v1/change-requests': 'submit',
  'POST /v1/change-requests/:id/cancel': 'cancel',
  'POST /v1/change-requests/:id/approve': 'approve',
  'POST /v1/change-requests/:id/reject': 'approve',
  'GET /metrics': 'read',
  'GET /v1/tokens': 'admin',
  'POST /v1/tokens': 'admin',
  'POST /v1/tokens/:id/revoke': 'admin',
  'GET /v1/audit': 'admin',
};

/** The scope a matched route asks for; admin for one the table does not list. */
export function scopeFor(method: string, route: string): Scope {
  return ROUTE_SCOPES[`${method} ${route}`] ?? 'admin';
}
