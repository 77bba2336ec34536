#!/usr/bin/env node
// The sofa-ts command: runs the compiled CLI (built by `npm ci` through the root prepare script).
import('../dist/main.js')
  .then((m) => m.main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.error(`sofa-ts: ${e && e.message ? e.message : e}`);
      process.exitCode = 2;
    },
  );
