#!/usr/bin/env node
// svc-router: the proxy command. The gateway itself is not in this version yet; say so plainly.
process.stderr.write('svc-router: the proxy is not available in @svc/router 0.1.0 yet.\n');
process.exitCode = 1;
