// Per-ruleset panels: drawn above the generic text picture when the ruleset is known.
// Each panel is a function (element, update, send) that redraws the element from the update.
window.ClashPanels = window.ClashPanels || {};
