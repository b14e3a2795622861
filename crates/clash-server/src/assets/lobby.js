// Lobby: show the chosen preset's setup JSON so it can be read or edited before creating.
(function () {
  const presets = JSON.parse(document.getElementById('presets').textContent);
  const select = document.getElementById('preset');
  const setup = document.getElementById('setup');
  const blurb = document.getElementById('blurb');
  if (!select || !setup) return;
  let shown = setup.value.trim();
  function fill() {
    const p = presets[select.value];
    blurb.textContent = p ? p.blurb : 'Write the setup for this game in the Setup box.';
    // Replace the text only if the user has not edited it.
    if (p && (setup.value.trim() === '' || setup.value.trim() === shown)) {
      setup.value = JSON.stringify(p.setup, null, 2);
      shown = setup.value.trim();
    }
  }
  select.addEventListener('change', fill);
  fill();
})();
