// Runs the test files that need the Kubernetes cluster (docblock pragma @farm-kubernetes) last, so that the
// cluster's background start (a cold build of the Go tools takes minutes) overlaps every other test.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const needsKubernetes = (path) => /@farm-kubernetes\b/.test(readFileSync(path, 'utf8').slice(0, 2000));

class KubernetesLastSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return [...sorted.filter((t) => !needsKubernetes(t.path)), ...sorted.filter((t) => needsKubernetes(t.path))];
  }
}

module.exports = KubernetesLastSequencer;
