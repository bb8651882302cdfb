// Prints one plain closing line, "N passed, N failed[, N skipped]", and keeps it in .cache/test-summary.txt
// so scripts/test.sh can repeat it as the very last line. A test file that could not run counts as failed.
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    const file = path.join(__dirname, '..', '.cache', 'test-summary.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line + '\n');
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
