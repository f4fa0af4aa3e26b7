// Runs the SQL recipe of a per-point summary (assets/summary.sql) in DuckDB
// on every <name>.long.csv of a folder and writes <name>.duckdb.csv beside it,
// for `calibrate summary-compare` to check against the summaries Go writes.
//
// Usage: node duckdb_summary.cjs <node prefix with @duckdb/node-api> <recipe.sql> <folder>
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const [prefix, recipe, dir] = process.argv.slice(2);
  if (!dir) {
    throw new Error('usage: node duckdb_summary.cjs <node prefix> <recipe.sql> <folder>');
  }
  const { DuckDBInstance } = require(path.resolve(prefix, 'node_modules', '@duckdb', 'node-api'));
  const sql = fs.readFileSync(recipe, 'utf8');
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const quote = (p) => "'" + p.replace(/'/g, "''") + "'";
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.long.csv')).sort()) {
    const long = path.join(dir, f);
    const out = path.join(dir, f.replace(/\.long\.csv$/, '.duckdb.csv'));
    const start = Date.now();
    await conn.run(`CREATE OR REPLACE TABLE pilot AS SELECT * FROM read_csv(${quote(long)}, header = true,
      columns = {'point': 'BIGINT', 'class': 'VARCHAR', 'score': 'DOUBLE', 'label': 'VARCHAR'})`);
    await conn.run(`COPY (${sql}) TO ${quote(out)} (HEADER, DELIMITER ',')`);
    console.log(`${f}: DuckDB ran the recipe in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
