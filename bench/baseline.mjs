/**
 * The baseline: read every file listed in `<corpus>/files.txt` and JSON.parse every line (the
 * least a tool that reads the transcripts must do). Prints the line and error counts.
 */
import { readFileSync } from 'node:fs';

const list = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
let lines = 0;
let bad = 0;
for (const file of list) {
  const text = readFileSync(file, 'utf8');
  for (const line of text.split('\n')) {
    if (line === '') continue;
    lines += 1;
    try {
      JSON.parse(line);
    } catch {
      bad += 1;
    }
  }
}
process.stdout.write(`${JSON.stringify({ files: list.length, lines, bad })}\n`);
