/**
 * A fix to ADK's dev UI (2.0.0) that Baton applies to the copy it serves: the UI flags an event
 * "Performance" when the system instruction of a model call differs from the previous model call's in the
 * session, whichever agent made either (google/adk-web#462, google/adk-js#735). After every transfer the
 * next call is another agent's, with its own instruction and its own context cache, so the warning fired
 * on every hand-off. Here each model call is compared with the previous call of the same agent
 * (`gen_ai.agent.name`, which Baton and ADK set on every model span): a change within one agent's calls
 * is still flagged.
 */

/**
 * The minified loop over the time-sorted model spans, whatever the minifier named things: `for(let n=1;
 * n<i.length;n++){let o=i[n],a=i[n-1],r=F(o.io?.inputs),s=F(a.io?.inputs);` where `F` reads a request's
 * system instruction.
 */
const LOOP =
  /for\(let ([\w$]+)=1;\1<([\w$]+)\.length;\1\+\+\)\{let ([\w$]+)=\2\[\1\],([\w$]+)=\2\[\1-1\],([\w$]+)=([\w$]+)\(\3\.io\?\.inputs\),([\w$]+)=\6\(\4\.io\?\.inputs\);/g;

/** What a patched file starts with (Apache-2.0 §4(b): a modified file says so). */
export const PATCH_NOTICE =
  "/* Modified by @baton-agents/core (baton-dev-ui): the system-instruction check compares each model call with the same agent's previous one (google/adk-web#462). */\n";

/**
 * `source` with the check scoped to each agent, or `undefined` when it holds no such loop (another file of
 * the UI) or was patched already. Throws when it holds more than one, which this patch does not know.
 */
export function scopeInstructionCheck(source: string): string | undefined {
  if (source.startsWith(PATCH_NOTICE)) return undefined;
  const found = [...source.matchAll(LOOP)];
  if (found.length === 0) return undefined;
  if (found.length > 1)
    throw new Error(`${found.length} system-instruction checks in one file; expected one.`);
  const patched = source.replace(
    LOOP,
    (
      _all,
      n: string,
      spans: string,
      current: string,
      previous: string,
      sys: string,
      read: string,
      prev: string,
    ) =>
      `for(let ${n}=1;${n}<${spans}.length;${n}++){let ${current}=${spans}[${n}],` +
      `${previous}=${spans}.slice(0,${n}).findLast(x=>x.attrAgentName===${current}.attrAgentName),` +
      `${sys}=${read}(${current}.io?.inputs),${prev}=${previous}&&${read}(${previous}.io?.inputs);`,
  );
  return PATCH_NOTICE + patched;
}
