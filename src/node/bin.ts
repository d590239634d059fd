#!/usr/bin/env node
// `node dist/node/bin.js`, as before: the command is bin.cjs (bin.cts says why).
import "./bin.cjs";
