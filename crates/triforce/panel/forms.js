// Triforce's table form: the players (3 to 6, TF-5), each seat's colour and a name its player
// goes by, who plays first (TF-11), the white layout (TF-8) and an optional turn limit (TF-30).
// Triforce has no characters to make: the table starts as soon as it is made. The engine
// checks every field; this script only draws.
import { ClashForms, K } from '../kit.js';

const h = K.h;
const COLOURS = ['Red', 'Green', 'Blue', 'Yellow', 'Purple', 'Teal'];
const DEFAULT = ['S', 'S', 'L', 'S', 'L', 'M', 'M', 'M', 'S', 'M', 'L', 'L', 'L', 'S', 'M'];
const SIZES = [['S', 'Small'], ['M', 'Medium'], ['L', 'Large']];
const TURNS_EACH = 30;

/**
 * The table's choices (the game's options: see its `Rules`).
 * @typedef {{ starting_seat: string, names?: Record<string, string>, layout?: string[], free_layout?: boolean, turn_limit?: number }} Options
 */

/**
 * @param {HTMLElement} box
 * @param {{ players: number }} ctx
 * @returns {import('../kit.js').TableForm}
 */
function tableForm(box, ctx) {
  let players = ctx.players || 3;
  const names = COLOURS.map((c) => {
    const t = K.text('', { maxlength: '24', placeholder: 'Name (optional)', 'aria-label': 'Name of ' + c });
    t.dataset.colour = c;
    return t;
  });
  const nameRows = h('div', 'tf-form-names');
  const first = K.select([], 'p1', 'Who plays first');
  const own = K.checkbox('Lay out the white pyramids myself', false);
  const free = K.checkbox('Any mix of sizes (not five of each)', false);
  const layout = DEFAULT.map((size, i) => {
    const sel = K.select(SIZES, size, 'Position ' + (i + 1));
    sel.dataset.position = String(i + 1);
    return sel;
  });
  const board = h('div', 'tf-form-board');
  for (const row of [[0], [1, 2], [3, 4, 5], [6, 7, 8, 9], [10, 11, 12, 13, 14]]) board.append(h('div', 'tf-form-row', ...row.map((i) => layout[i])));
  const layoutBox = h('div', null, board, free);
  // TF-30: a game whose stacks hold steady can run for hundreds of turns, so the form offers a
  // limit by default: 30 turns for each player (90 at three), until the host changes it.
  const limit = K.checkbox('End the game after a number of turns', true);
  const turns = K.stepper('Turns', 1, 500, TURNS_EACH * players);
  let turnsTouched = false;
  turns.addEventListener('input', () => { turnsTouched = true; });
  const sync = () => {
    layoutBox.hidden = !own.box.checked;
    turns.hidden = !limit.box.checked;
  };
  own.box.addEventListener('change', sync);
  limit.box.addEventListener('change', sync);
  sync();
  function seats() {
    nameRows.replaceChildren(...names.slice(0, players).map((t, i) =>
      h('label', 'tf-form-name', h('span', 'tf-form-colour tf-' + COLOURS[i].toLowerCase(), COLOURS[i]), t)));
    const was = first.value;
    first.replaceChildren(...names.slice(0, players).map((t, i) => {
      const o = document.createElement('option');
      o.value = 'p' + (i + 1);
      o.textContent = COLOURS[i] + (t.value.trim() ? ' (' + t.value.trim() + ')' : '');
      return o;
    }));
    first.value = was && Number(was.slice(1)) <= players ? was : 'p1';
  }
  for (const t of names) t.addEventListener('change', seats);
  seats();
  box.append(
    K.fieldset('options.names', 'Players and colours', 'Each seat plays its colour’s pyramids; a name is how the others know its player.', nameRows),
    K.field('options.starting_seat', 'Who plays first', first),
    K.fieldset('options.layout', 'The board', 'The default board has five white pyramids of each size.', own, layoutBox),
    K.fieldset('options.turn_limit', 'Turn limit', 'When the last turn has been played, the game ends and is scored as a deadlock: whoever is at the bottom of the most stacks wins. Offered at 30 turns for each player; untick it to play without a limit.', limit, turns));
  return {
    /** @param {number} n */
    players(n) {
      players = n;
      seats();
      if (!turnsTouched) turns.set(TURNS_EACH * n, true);
    },
    get() {
      /** @type {Options} */
      const out = { starting_seat: first.value };
      /** @type {Record<string, string>} */
      const given = {};
      names.slice(0, players).forEach((t, i) => { if (t.value.trim()) given['p' + (i + 1)] = t.value.trim(); });
      if (Object.keys(given).length) out.names = given;
      if (own.box.checked) { out.layout = layout.map((s) => s.value); if (free.box.checked) out.free_layout = true; }
      if (limit.box.checked) out.turn_limit = turns.get();
      return out;
    },
  };
}

ClashForms.register('triforce', {
  words: { players: 3, host: 'You host the table: Triforce has no GM.', seat: (i) => COLOURS[i] + ' pyramids' },
  table: tableForm,
});
