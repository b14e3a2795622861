// Words a player should never read on a game's page (issue 29): numbers without their meaning,
// debug shapes, rule IDs inside labels and prompts, and mangled names. The game tests call
// `assertNoBannedWords` on every page they visit; each rule says what it stands for.
import assert from 'node:assert/strict';

/** Everywhere on a page: the board, the banner and the log. */
export const BANNED = [
  [/\bthe (first|second|third|fourth|fifth|sixth) player\b/i, 'a seat called by its place though its player named a character or party'],
  [/\(\d+, ?\d+\)/, 'a roll value as a pair, "(18,1)"'],
  [/\b\d+ ?\/ ?\d+\b/, 'a bare fraction such as "19/5" or "3/4/3"'],
  [/\b\d+ P \d+ T\b/, 'P and T without saying what they are'],
  [/\bd\d+\+0\b/, 'a die plus a zero die, "d4+0"'],
  [/recovers to/, 'energy given as slashes'],
  [/\broom \d/i, '"room 1" for what a type can take'],
  [/special window/i, 'the special window jargon'],
  [/Problem #\d/, 'a problem by its number'],
  [/\w\((s|es)\)/, 'a plural in brackets, "action(s)"'],
  [/s['’]s\b/, 'a possessive of a name ending in s, "The Smugglers\'s"'],
  [/at least [−-]?\d+ points/, 'odds as a score instead of chances to win and lose'],
  [/\bSome\(|\bNone\b|\bnull\b|\bundefined\b|\[object/, 'debug text'],
];

/** In the board and the turn banner only (the log may carry rule IDs: the page links them). */
export const BANNED_IN_PROMPTS = [
  [/\((?:IT|TF|ND|WA)-\d+|\(D-\d+\)|\b(?:IT|TF|ND|WA)-\d+\b/, 'a rule ID inside a label or prompt'],
  [/\([DGA]-[LMHJS]\)/, 'a move code where the board says "Defend Mid"'],
];

/** Triforce has no GM: its board never speaks of one. */
export const BANNED_IN_TRIFORCE = [[/\bGM\b/, '"the GM" in a game without one']];

/** The text a person can read on `page`: what shows, and the log even while it is folded. */
async function readable(page) {
  return page.evaluate(() => {
    const log = document.querySelector('#log');
    return {
      page: document.body.innerText + '\n' + (log ? log.textContent : ''),
      prompts: ['#panel', '#turn-text', '#banner'].map((s) => document.querySelector(s)).filter(Boolean).map((e) => e.innerText).join('\n'),
    };
  });
}

/** Fail when any banned word shows on `page` (`where` names the page in the message). */
export async function assertNoBannedWords(page, where, { triforce = false, allow = [] } = {}) {
  const text = await readable(page);
  const check = (rules, body) => {
    for (const [re, why] of rules) {
      if (allow.some((a) => a.source === re.source)) continue;
      const m = re.exec(body);
      assert.equal(m, null, where + ' shows ' + why + ': “' + (m ? body.slice(Math.max(0, m.index - 60), m.index + 60) : '') + '”');
    }
  };
  check(BANNED, text.page);
  check(BANNED_IN_PROMPTS, text.prompts);
  if (triforce) check(BANNED_IN_TRIFORCE, text.prompts);
}
