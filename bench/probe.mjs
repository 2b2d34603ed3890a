/** Preloaded with `node --import`: writes this process's peak RSS (KiB) to $BENCH_RSS_FILE at exit. */
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_RSS_FILE;
if (target) process.on('exit', () => writeFileSync(target, String(process.resourceUsage().maxRSS)));
