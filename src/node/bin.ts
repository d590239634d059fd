#!/usr/bin/env node
// `node dist/node/bin.js`, as before: the command is bin.cjs (package.json's bin), a CommonJS file
// that starts sooner (bin.cts says why).
import "./bin.cjs";
