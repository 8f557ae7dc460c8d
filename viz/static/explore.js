// A click on a step of the path's diagram goes back to the world after
// it: the page whose path is the first steps of this one.
(function () {
  var svg = document.querySelector('svg.seq');
  if (!svg) { return; }
  var path = new URLSearchParams(location.search).get('path') || '';
  var steps = path === '' ? [] : path.split('.');
  svg.addEventListener('click', function (e) {
    var g = e.target.closest('[data-step]');
    if (g) { location.search = '?path=' + steps.slice(0, +g.getAttribute('data-step')).join('.'); }
  });
})();
