// Invite page: take the seat at once (the form is there for browsers without scripts).
import { $ } from './kit.js';

const form = $('claim');
if (form) form.submit();
