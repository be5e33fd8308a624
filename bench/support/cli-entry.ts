/** Runs the `asset-sync` CLI from source (benchmarks start the service through it without a build). */
import { main } from '../../src/cli.js';

process.exitCode = await main(process.argv.slice(2));
