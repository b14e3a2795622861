// Type-checks the page scripts and every game crate's board with tsc (scripts/test.sh runs it):
// `node e2e/typecheck.mjs`. tsconfig.json holds the options; the folders that stand for the
// server's /assets/ ("rootDirs": the shared assets and each crate with a panel/ folder) are
// found here, so a new game crate's board is checked without naming it anywhere. The config
// tsc reads is written to tsconfig.crates.json (git-ignored) beside it.
import { readdirSync, existsSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const E2E = path.dirname(fileURLToPath(import.meta.url));
const CRATES = path.join(E2E, '..', 'crates');
const games = readdirSync(CRATES)
  .filter((c) => existsSync(path.join(CRATES, c, 'panel')))
  .sort()
  .map((c) => '../crates/' + c);
const config = {
  extends: './tsconfig.json',
  compilerOptions: { rootDirs: ['../crates/clash-server/src/assets', ...games] },
};
const out = path.join(E2E, 'tsconfig.crates.json');
writeFileSync(out, JSON.stringify(config, null, 2) + '\n');
const tsc = spawnSync(path.join(E2E, 'node_modules', '.bin', 'tsc'), ['-p', out], { stdio: 'inherit' });
process.exit(tsc.status ?? 1);
