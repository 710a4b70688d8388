/*
 * Baton sends ADK Python's system instruction verbatim (the agent's instruction, the identity line, the
 * transfer block), so the recorded text is compared exactly. A difference is reported at its first
 * differing line, with both lines, so a reordered target or a missing sentence is easy to see.
 */

const shown = (line: string | undefined): string =>
  line === undefined ? "(end of text)" : JSON.stringify(line);

/** The first line where Baton's system instruction `live` differs from the `recorded` one; none when equal. */
export function instructionProblems(live: string, recorded: string): string[] {
  if (live === recorded) return [];
  const expected = recorded.split("\n");
  const actual = live.split("\n");
  let at = 0;
  while (at < Math.max(expected.length, actual.length) && expected[at] === actual[at]) at++;
  return [
    `config.system_instruction differs from the recording at line ${at + 1}: ` +
      `expected ${shown(expected[at])}, got ${shown(actual[at])}`,
  ];
}
