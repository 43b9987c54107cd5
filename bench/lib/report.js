'use strict';
/** How a bench ends: its report saved under bench/results, its tables printed, its failure shown. */
const fs = require('node:fs');
const path = require('node:path');

/** Where the benches' JSON reports go (ignored by git and the linter). */
const RESULTS_DIR = path.join(__dirname, '..', 'results');

/**
 * Writes `report` to bench/results/<name>-<epoch ms>.json.
 * @param {string} name  the bench's name, e.g. interactions
 * @param {unknown} report
 */
function writeResults(name, report) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(RESULTS_DIR, `${name}-${Date.now()}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
}

/**
 * One row of a printed table: `label` padded to `labelWidth`, each cell right-aligned in `cellWidth`.
 * @param {string} label
 * @param {unknown[]} cells
 * @param {number} labelWidth
 * @param {number} cellWidth
 */
function tableRow(label, cells, labelWidth, cellWidth) {
  return `${label.padEnd(labelWidth)}${cells.map((c) => String(c).padStart(cellWidth)).join('')}`;
}

/**
 * Runs a bench's `main`; an error is printed and the process exits 1.
 * @param {() => Promise<void>} main
 */
function runBench(main) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { writeResults, tableRow, runBench };
