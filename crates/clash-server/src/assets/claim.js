// Invite page: take the seat at once (the form is there for browsers without scripts).
(function () {
  'use strict';
  const form = document.getElementById('claim');
  if (form) form.submit();
})();
