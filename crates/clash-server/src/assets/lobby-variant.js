// The lobby's rule variant, beside the ready-made setups: the chosen game's numbers a variant
// may change (each with its rule, its value as written and its bounds), and a workbench
// study's "Open a table with it" link (`/?game=…&variant=…&changes=…`) filled in.
import { $, el, pageData } from './kit.js';
import { ruleLinker } from './rule-links.js';

/** @type {import('./types/BenchGames').BenchGames} */
const bench = pageData('variant-games', { games: [], limits: { variants: 0, games: 0, strong: 0, mixed: 0, exact: 0 } });
const preset = $('preset');
const hint = $('variant-hint');
const pick = $('variant-pick');
const ruleLinks = pageData('rule-links', {});

/** @param {string | null | undefined} value */
function gameOf(value) {
  return bench.games.find((g) => String(value || '').split('#')[0] === g.id) || null;
}

function showNumbers() {
  const game = gameOf(preset.value);
  pick.hidden = !game;
  if (!game) return;
  hint.replaceChildren(el('p', null, 'The numbers ' + game.name + ' lets a variant change:'),
    el('ul', null, ...game.params.map((p) => el('li', null, el('b', null, p.key), ' — ' + p.name + ' (' + p.rule + '): as written ' + p.default + ', ' + p.bounds))));
  ruleLinker(ruleLinks[game.id] || null, null).link(hint);
}

if (preset && hint && pick) {
  preset.addEventListener('change', showNumbers);
  const q = new URLSearchParams(location.search);
  const game = bench.games.find((g) => g.id === q.get('game'));
  if (game && q.get('changes')) {
    const option = Array.from(preset.options).find((o) => o.value.split('#')[0] === game.id);
    if (option) preset.value = option.value;
    preset.dispatchEvent(new Event('change'));
    $('variant-name').value = q.get('variant') || '';
    $('variant-changes').value = q.get('changes') || '';
    pick.open = true;
    const ready = $('ready-made');
    if (ready) ready.open = true;
    pick.scrollIntoView({ block: 'center' });
  }
  showNumbers();
}
