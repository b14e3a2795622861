// The table page's link to the review, shown once the table has ended (its secret is out, so
// nothing a review reads is hidden any more).
import { $, table } from './kit.js';

function show() {
  const u = table.latest();
  const link = $('review-link');
  if (link) link.hidden = !(u && u.fairness && u.fairness.secret);
}
document.addEventListener('clash:closed', () => setTimeout(show, 0));
show();
