// What every part of the farm that starts Kubernetes Jobs shares: the API client set-up, names and labels.
export * from './kube-config';
export * from './names';
export * from './jobs';
export * from './job-watcher';
export * from './job-pod';
export * from './sandbox-pod';
