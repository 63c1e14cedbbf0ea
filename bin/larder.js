#!/usr/bin/env -S node --no-memory-reducer
// Node's flags as `npm run start:node` gives them (package.json): V8's memory reducer, run on a
// server idle since its start, leaves it 20 to 30% slower per request for good (docs/benchmarks.md).
import '../dist/src/cli/main.js';
