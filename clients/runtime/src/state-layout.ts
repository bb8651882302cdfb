import path from 'node:path';

/** What lives under FARM_STATE_DIR on one machine. */
export function stateLayout(stateDir: string) {
  return {
    /** PGlite's data directory (the orchestrator's tables, the bus journal, the srm's leases). */
    database: path.join(stateDir, 'db'),
    /** One directory per running agent process (see ChildProcessLauncher). */
    agents: path.join(stateDir, 'agents'),
    /** Bare repositories the farm serves over git smart HTTP (mirrors of local repositories). */
    git: path.join(stateDir, 'git'),
    /** Credentials taken off repository URLs at intake (git's credential-store format, mode 600). */
    credentials: path.join(stateDir, 'git-credentials'),
    /** Dependency environments set up once per manifest content, shared by the agents and builds (FARM_ENVIRONMENTS_DIR). */
    environments: path.join(stateDir, 'environments'),
    /** Agents' task logs. */
    logs: path.join(stateDir, 'logs'),
    /** `farm up`'s admin token, created at its first start (mode 600); the CLI reads it from here. */
    adminToken: path.join(stateDir, 'admin-token'),
    /** The URL of the API of the `farm up` running on this state (removed when it stops); the CLI reads it. */
    apiUrl: path.join(stateDir, 'api-url'),
    /** The secret the farm's components send to its srm (FARM_COMPONENT_TOKEN), generated once (mode 600). */
    componentToken: path.join(stateDir, 'component-token'),
  };
}
