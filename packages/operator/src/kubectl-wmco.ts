#!/usr/bin/env node
// kubectl's plugin form of the CLI: kubectl runs `kubectl-wmco` from PATH for `kubectl wmco <command>`.
// main.ts names the program after this file, so help and errors read `kubectl wmco ...`.
import './main.js';
