// Clicking a step (or an arrow, a mark) shows the world after it; the
// arrow keys move between steps; the step is kept in the address's #.
(function () {
  var svg = document.querySelector('svg.seq');
  var last = +svg.getAttribute('data-steps');
  var cur = -1;
  function show(i) {
    if (i < 0 || i > last || i === cur) { return; }
    if (cur >= 0) {
      document.getElementById('world-' + cur).hidden = true;
      document.getElementById('row-' + cur).classList.remove('sel');
    }
    cur = i;
    document.getElementById('world-' + i).hidden = false;
    document.getElementById('row-' + i).classList.add('sel');
    if (location.hash !== '#step-' + i) { history.replaceState(null, '', '#step-' + i); }
  }
  svg.addEventListener('click', function (e) {
    var g = e.target.closest('[data-step]');
    if (g) { show(+g.getAttribute('data-step')); }
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' || e.key === 'j') { show(cur + 1); e.preventDefault(); }
    if (e.key === 'ArrowUp' || e.key === 'k') { show(cur - 1); e.preventDefault(); }
  });
  var m = /^#step-(\d+)$/.exec(location.hash);
  show(m ? Math.min(+m[1], last) : last);
})();
