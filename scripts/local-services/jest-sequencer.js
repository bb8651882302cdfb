// Runs the test files that need something built in the background late (started first thing by scripts/test.sh;
// minutes when cold), so that the build overlaps every other test: a real Gitea (docblock pragma @farm-gitea) and
// the farm's image (@farm-image), then the Kubernetes cluster (@farm-kubernetes), last.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const head = (path) => readFileSync(path, 'utf8').slice(0, 2000);
const rank = (path) => {
  const text = head(path);
  if (/@farm-kubernetes\b/.test(text)) return 2;
  if (/@farm-(gitea|image)\b/.test(text)) return 1;
  return 0;
};

class GoServicesLastSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const ranked = sorted.map((t) => [rank(t.path), t]);
    return [0, 1, 2].flatMap((r) => ranked.filter(([k]) => k === r).map(([, t]) => t));
  }
}

module.exports = GoServicesLastSequencer;
