#!/usr/bin/env node
import { main } from "./cli.js";

const status = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
process.exitCode = status;
