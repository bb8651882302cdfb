// Prints one plain closing line, "N passed, N failed[, N skipped]", and keeps it in .cache/test-summary.txt
// (.cache/test-summary.<lane>.txt for a lane, with the lane's name before it) so scripts/test.sh can repeat
// it at the very end. A test file that could not run counts as failed.
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.lane = options.lane;
  }

  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const counts = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    const line = this.lane ? `${this.lane} lane: ${counts}` : counts;
    const file = path.join(__dirname, '..', '.cache', this.lane ? `test-summary.${this.lane}.txt` : 'test-summary.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line + '\n');
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
